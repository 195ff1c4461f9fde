//go:build amd64 || arm64

package prefetch

import "unsafe"

// Line starts loading the cache line that holds addr and returns at
// once. addr need not be valid to dereference.
//
//go:noescape
func Line(addr unsafe.Pointer)
