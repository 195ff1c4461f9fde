package z3

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// ErrAbandoned is wrapped by the error of a CheckContext whose check did
// not stop when interrupted: the Context was retired and the check left
// running (see CheckContext).
var ErrAbandoned = errors.New("z3: check did not stop when interrupted; its context was abandoned")

// CheckContext checks the assertions together with the assumptions, like
// CheckAssumptions, but never runs much past ctx: when ctx is done the
// check is interrupted, and a check that is still running grace later is
// abandoned.
//
// Abandoning exists because Z3 4.8.12 does not look at its interrupt flag
// everywhere: on non-linear real problems (nlsat computing with algebraic
// numbers of high degree) a check was seen running for minutes after both
// its timeout and an interrupt. A call into libz3 cannot be stopped from Go, so
// the check is left to run on its own thread and the Context is retired as
// by Abandon: every later call on it (Close included) is a no-op or an
// error wrapping ErrClosed, and its memory is never freed, because the
// running check still uses it. The thread and the memory are given back
// when the process exits; a long-running process that abandons checks
// keeps paying for them until then.
//
// A check stopped by ctx in time returns Unknown with a nil error, and
// ReasonUnknown reads "canceled" (or "timeout" under an installed timeout).
func (s *Solver) CheckContext(ctx context.Context, grace time.Duration, assumptions ...*Term) (Result, error) {
	const op = "Solver.CheckContext"
	c, as, err := s.prepareCheck(op, assumptions)
	if err != nil {
		return Unknown, err
	}
	if ctx.Err() != nil {
		return Unknown, nil
	}
	// The check's thread touches only these copies of the raw pointers,
	// never the Go-side state of c or s: after an abandon the owner may go
	// on (and retire c) while the thread still runs.
	z, raw := c.z, s.s
	done := make(chan z3_lbool, 1)
	start := time.Now()
	stopWatchdog := s.watchdog()
	go func() {
		if len(as) == 0 {
			done <- z3_solver_check(z, raw)
		} else {
			done <- z3_solver_check_assumptions(z, raw, uint32(len(as)), ptr(as))
		}
	}()
	var r z3_lbool
	select {
	case r = <-done:
	case <-ctx.Done():
		s.Interrupt()
		t := time.NewTimer(grace)
		select {
		case r = <-done:
			t.Stop()
		case <-t.C:
			stopWatchdog()
			c.retire() // c.z stays set: the abandoned check still uses it
			return Unknown, fmt.Errorf("z3: %s: %w", op, ErrAbandoned)
		}
	}
	stopWatchdog()
	runtime.KeepAlive(assumptions)
	s.lastElapsed = time.Since(start)
	return checkResult(c, op, r)
}
