//go:build linux || darwin

package z3

import (
	"unsafe"

	_ "github.com/ebitengine/purego" // sets up runtime.cgocall without cgo (fakecgo)
)

// The wrappers of zapi.go call libz3 through ccall on amd64: a call through
// purego.SyscallN costs a heap allocation (its arguments escape: it is
// marked uintptrescapes) and the copying of 80 words, which at one call per
// term built made the binding measurably slower than cgo (CHANGELOG). ccall
// passes up to six integer arguments in a frame on the goroutine's stack,
// as cgo does; that is safe because libz3 never calls back into Go (the
// binding installs no callback: Context sets no error handler), so the
// goroutine's stack cannot move during the call. Pointer arguments are
// kept alive by the wrappers (keepAlive after the call).

// cframe is what ccall6 reads and writes; its layout is the assembly's.
type cframe struct {
	fn uintptr
	a  [6]uintptr
	r  uintptr
}

// ccallABI0 is the address of the assembly ccall6 (ccall_amd64.s).
var ccallABI0 uintptr

// runtime_cgocall runs fn(arg) on the system stack as a cgo call does
// (the same entry purego uses).
//
//go:linkname runtime_cgocall runtime.cgocall
//go:noescape
func runtime_cgocall(fn uintptr, arg unsafe.Pointer) int32

// ccall calls the C function fn with six integer arguments (a function
// of fewer ignores the rest, as the C convention allows) and returns its
// integer result.
func ccall(fn, a0, a1, a2, a3, a4, a5 uintptr) uintptr {
	f := cframe{fn: fn, a: [6]uintptr{a0, a1, a2, a3, a4, a5}}
	runtime_cgocall(ccallABI0, unsafe.Pointer(&f))
	return f.r
}
