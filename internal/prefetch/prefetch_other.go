//go:build !amd64 && !arm64

package prefetch

import "unsafe"

// Line does nothing where there is no prefetch instruction written here.
func Line(addr unsafe.Pointer) {}
