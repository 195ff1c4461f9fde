package main

import (
	"fmt"
	"io"
	"time"
)

// phaseTimeout is a budget that ran out in a phase before solving
// (loading a model: reading, parsing, importing and lowering it; or
// parsing a CHC problem): the answer is undecided (exit 3), never a
// verdict and never an input error.
type phaseTimeout struct {
	phase     string
	timeoutMS int
}

func (e *phaseTimeout) Error() string {
	return fmt.Sprintf("timeout while %s: --timeout-ms %d ran out before solving began (docs/queries.md, Budgets)", e.phase, e.timeoutMS)
}

// withinBudget runs fn and waits for it until deadline, the command's
// budget counted from the program's start. Loading takes no context
// (every format's parser and the FCSTM lowering would need one), so a
// load still running at the deadline is abandoned: its goroutine goes
// on until it returns, which in the CLI is when the process exits.
// Whatever fn touches must then be left alone (a Z3 context it uses is
// abandoned, not deleted).
func withinBudget[T any](deadline time.Time, timeoutMS int, phase string, fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned fn still returns
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-timer.C:
		var zero T
		return zero, &phaseTimeout{phase: phase, timeoutMS: timeoutMS}
	}
}

// undecidedPhase reports a phase timeout on stderr as the command's
// undecided answer: exit 3.
func undecidedPhase(stderr io.Writer, command string, err *phaseTimeout) error {
	fmt.Fprintf(stderr, "stateproof %s: UNKNOWN: %v\n", command, err)
	return &exitError{3}
}
