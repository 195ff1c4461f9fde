package z3

//go:generate go run genlazy.go

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>

int stateproof_z3_load(const char *path, char *err, size_t n);
*/
import "C"

import (
	"errors"
	"os"
	"strings"
	"sync"
	"unsafe"
)

// libraryNames are the names libz3 is looked up by, in order: Debian's
// runtime package (libz3-4), then the development symlink, then macOS.
// STATEPROOF_LIBZ3, when set, names the one file to load instead.
var libraryNames = []string{"libz3.so.4", "libz3.so", "libz3.dylib"}

// InstallHint is the one line a command prints when libz3 is missing.
const InstallHint = "install Z3's library (Debian/Ubuntu: apt-get install libz3-4; it comes with libz3-dev), or point STATEPROOF_LIBZ3 at libz3.so; only bmc, prove and explain need it"

// ErrNotInstalled is the error NewContext and Version return when libz3
// cannot be loaded; errors.Is finds it in the returned error.
var ErrNotInstalled = errors.New("libz3 is not installed")

// load opens libz3 and resolves its entry points, once per process: the
// binary is not linked against libz3 (lazy.c forwards every call), so that
// verify and compose run on a machine without it. The library handle is
// process-wide by nature, hence the package-level sync.OnceValue.
var load = sync.OnceValue(func() error {
	names := libraryNames
	if p := os.Getenv("STATEPROOF_LIBZ3"); p != "" {
		names = []string{p}
	}
	var why []string
	for _, name := range names {
		cname := C.CString(name)
		buf := (*C.char)(C.malloc(512))
		rc := C.stateproof_z3_load(cname, buf, 512)
		msg := C.GoString(buf)
		C.free(unsafe.Pointer(cname))
		C.free(unsafe.Pointer(buf))
		if rc == 0 {
			return nil
		}
		why = append(why, msg)
	}
	return &loadError{tried: why}
})

type loadError struct{ tried []string }

func (e *loadError) Error() string {
	return ErrNotInstalled.Error() + " (" + strings.Join(e.tried, "; ") + "): " + InstallHint
}

func (e *loadError) Unwrap() error { return ErrNotInstalled }
