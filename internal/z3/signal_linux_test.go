//go:build linux

package z3

import (
	"syscall"
	"testing"
	"unsafe"
)

// kernelSigaction is struct sigaction as the rt_sigaction system call sees
// it on Linux.
type kernelSigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

func sigintAction(t *testing.T) kernelSigaction {
	t.Helper()
	var old kernelSigaction
	_, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(syscall.SIGINT), 0,
		uintptr(unsafe.Pointer(&old)), unsafe.Sizeof(old.mask), 0, 0)
	if errno != 0 {
		t.Fatalf("rt_sigaction: %v", errno)
	}
	return old
}

// TestCheckLeavesSIGINTAlone: with Z3's default ctrl_c=true a check installs
// its own SIGINT handler and restores the Go runtime's with signal(), which
// drops SA_SIGINFO/SA_ONSTACK. The binding's solvers must not do that.
func TestCheckLeavesSIGINTAlone(t *testing.T) {
	before := sigintAction(t)
	c := newTestContext(t)
	s := newTestSolver(t, c)
	assertPigeonhole(t, c, s, 10)
	if err := s.SetTimeout(30); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CheckAssumptions(termOK(t)(c.BoolConst("a"))); err != nil {
		t.Fatal(err)
	}
	if after := sigintAction(t); after != before {
		t.Fatalf("SIGINT action changed by a check: before %+v, after %+v", before, after)
	}
}
