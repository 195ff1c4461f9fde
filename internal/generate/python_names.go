package generate

import (
	"slices"
	"strings"
)

// pyModuleName is the Python module name of a package name: one that is
// a Python keyword, a module of Python's standard library (the runtime
// and the driver import some, and the driver's directory comes first on
// Python's path, so the generated module would shadow it) or the driver's
// own gets the prefix fsm, as packageName does for Go.
func pyModuleName(name string) string {
	if slices.Contains(strings.Fields(pyReserved), name) {
		return "fsm" + name
	}
	return name
}

// pyReserved lists Python's keywords, the top-level modules of its
// standard library (sys.stdlib_module_names of Python 3.11, lower case)
// and the driver's names.
const pyReserved = `
abc aifc and antigravity argparse array as assert ast async asynchat asyncio asyncore
atexit audioop await base64 bdb binascii bisect break builtins bz2 calendar case cgi cgitb
chunk class cmath cmd code codecs codeop collections colorsys compileall concurrent
configparser contextlib contextvars continue copy copyreg cprofile crypt csv ctypes curses
dataclasses datetime dbm decimal def del difflib dis distutils doctest driver elif else
email encodings ensurepip enum errno except faulthandler fcntl filecmp fileinput finally
fnmatch for fractions from ftplib functools gc genericpath getopt getpass gettext glob
global graphlib grp gzip hashlib heapq hmac html http idlelib if imaplib imghdr imp import
importlib in inspect io ipaddress is itertools json keyword lambda lib2to3 linecache
locale logging lzma machine mailbox mailcap marshal match math mimetypes mmap modulefinder
msilib msvcrt multiprocessing netrc nis nntplib nonlocal not nt ntpath nturl2path numbers
opcode operator optparse or os ossaudiodev pass pathlib pdb pickle pickletools pipes
pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile
pyclbr pydoc pydoc_data pyexpat queue quopri raise random re readline reprlib resource
return rlcompleter runpy sched secrets select selectors shelve shlex shutil signal site
smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse
ssl stat statistics string stringprep struct subprocess sunau symtable sys sysconfig
syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time timeit
tkinter token tokenize tomllib trace traceback tracemalloc try tty turtle turtledemo types
typing unicodedata unittest urllib uu uuid venv warnings wave weakref webbrowser while
winreg winsound with wsgiref xdrlib xml xmlrpc yield zipapp zipfile zipimport zlib
zoneinfo
`
