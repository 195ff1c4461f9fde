package z3

//go:generate go run genapi.go

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// libraryNames are the names libz3 is looked up by, in order: Debian's
// runtime package (libz3-4), then the development symlink, then macOS
// (Homebrew's z3 under /opt/homebrew or /usr/local, which dlopen does not
// search by itself). STATEPROOF_LIBZ3, when set, names the one file to
// load instead.
var libraryNames = []string{
	"libz3.so.4", "libz3.so",
	"libz3.dylib", "/opt/homebrew/lib/libz3.dylib", "/usr/local/lib/libz3.dylib",
}

// minMajor and minMinor are the oldest Z3 whose C API matches the
// signatures zapi.go was generated from (4.8 made Z3_bool a C bool).
const minMajor, minMinor = 4, 8

// InstallHint is the one line a command prints when libz3 is missing.
const InstallHint = "install Z3's library (Debian/Ubuntu: apt-get install libz3-4; macOS: brew install z3), or point STATEPROOF_LIBZ3 at libz3.so; only bmc, prove and explain need it"

// ErrNotInstalled is the error NewContext and Version return when libz3
// cannot be loaded; errors.Is finds it in the returned error.
var ErrNotInstalled = errors.New("libz3 is not installed")

// library holds the entry points of the loaded libz3.
type library struct {
	fn     [numEntryPoints]uintptr
	floats floatFuncs
}

// load opens libz3 and resolves its entry points, once per process. The
// binary is not linked against libz3 and needs no C compiler to build:
// zapi.go calls the entry points through purego, so verify and compose
// run on a machine without the library. A process has one copy of a
// shared library by nature, hence the package-level sync.OnceValues; the
// table is never written after it returns.
var load = sync.OnceValues(func() (*library, error) {
	names := libraryNames
	if p := os.Getenv("STATEPROOF_LIBZ3"); p != "" {
		names = []string{p}
	}
	var why []string
	for _, name := range names {
		lib, err := open(name)
		if err == nil {
			return lib, nil
		}
		why = append(why, err.Error())
	}
	return nil, &loadError{tried: why}
})

// lib is the loaded library. The wrappers in zapi.go call it only on a
// context NewContext made, so load has succeeded.
func lib() *library {
	l, _ := load()
	return l
}

// open loads one candidate file and checks that it is a Z3 new enough.
func open(name string) (*library, error) {
	h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, err
	}
	lib := &library{}
	if sym := lib.resolve(h); sym != "" {
		purego.Dlclose(h)
		return nil, fmt.Errorf("%s has no %s", name, sym)
	}
	if err := lib.registerFloatFuncs(h); err != nil {
		purego.Dlclose(h)
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	var major, minor, build, rev uint32
	fn, err := purego.Dlsym(h, "Z3_get_version")
	if err != nil {
		purego.Dlclose(h)
		return nil, fmt.Errorf("%s has no Z3_get_version", name)
	}
	purego.SyscallN(fn, uintptr(unsafe.Pointer(&major)), uintptr(unsafe.Pointer(&minor)), uintptr(unsafe.Pointer(&build)), uintptr(unsafe.Pointer(&rev)))
	if major < minMajor || major == minMajor && minor < minMinor {
		purego.Dlclose(h)
		return nil, fmt.Errorf("%s is Z3 %d.%d.%d, older than the %d.%d stateproof needs", name, major, minor, build, minMajor, minMinor)
	}
	return lib, nil
}

// resolve fills lib.fn from the library opened as handle, and returns the
// first entry point it lacks, or "". It calls dlsym itself, through ccall
// with the names in one reused buffer, rather than purego.Dlsym, which
// makes a C string and a reflective call per symbol (6 allocations, ~1.3
// µs each): for the ~140 entry points that was ~0.2 ms of every bmc or
// prove process, 1% of a short one (CHANGELOG).
func (lib *library) resolve(handle uintptr) (missing string) {
	dlsym, err := purego.Dlsym(purego.RTLD_DEFAULT, "dlsym")
	if err != nil || dlsym == 0 {
		return "dlsym"
	}
	buf := make([]byte, 0, 64)
	for i, sym := range entryPoints {
		buf = append(append(buf[:0], sym...), 0)
		lib.fn[i] = ccall(dlsym, handle, uintptr(unsafe.Pointer(&buf[0])), 0, 0, 0, 0)
		if lib.fn[i] == 0 {
			return sym
		}
	}
	runtime.KeepAlive(buf)
	return ""
}

// register binds one entry point that purego.SyscallN cannot call (it
// takes or returns a double) to the function variable fptr.
func (lib *library) register(handle uintptr, sym string, fptr any) (err error) {
	fn, err := purego.Dlsym(handle, sym)
	if err != nil || fn == 0 {
		return fmt.Errorf("no %s", sym)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot bind %s: %v", sym, r)
		}
	}()
	purego.RegisterFunc(fptr, fn)
	return nil
}

type loadError struct{ tried []string }

func (e *loadError) Error() string {
	return ErrNotInstalled.Error() + " (" + strings.Join(e.tried, "; ") + "): " + InstallHint
}

func (e *loadError) Unwrap() error { return ErrNotInstalled }

// cString is s as a NUL-terminated C string in Go memory; the wrapper
// that passes it keeps it alive until the call returns.
func cString(s string) *byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return &b[0]
}

// goString copies the NUL-terminated C string at p, which Z3 owns and
// may overwrite on its next call.
func goString(p uintptr) string {
	if p == 0 {
		return ""
	}
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	n := 0
	for *(*byte)(unsafe.Add(ptr, n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(ptr), n))
}

func boolArg(b bool) uintptr {
	if b {
		return 1
	}
	return 0
}

func keepAlive[T any](p *T) { runtime.KeepAlive(p) }
