//go:build !amd64 || !(linux || darwin)

package z3

import "github.com/ebitengine/purego"

// ccall calls the C function fn with six integer arguments through
// purego.SyscallN (see ccall_amd64.go for why amd64 does not).
func ccall(fn, a0, a1, a2, a3, a4, a5 uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, a0, a1, a2, a3, a4, a5)
	return r
}
