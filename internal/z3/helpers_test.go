package z3

import "testing"

// newTestContext returns a Context closed when the test ends.
func newTestContext(tb testing.TB) *Context {
	tb.Helper()
	c, err := NewContext()
	if err != nil {
		tb.Fatalf("NewContext: %v", err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// termOK returns a function that unwraps a (*Term, error) pair, failing the
// test on error: x := T(c.IntConst("x")).
func termOK(tb testing.TB) func(*Term, error) *Term {
	return func(t *Term, err error) *Term {
		tb.Helper()
		if err != nil {
			tb.Fatalf("unexpected error: %v", err)
		}
		return t
	}
}

// newTestSolver returns a solver of c, failing the test on error.
func newTestSolver(tb testing.TB, c *Context) *Solver {
	tb.Helper()
	s, err := c.NewSolver()
	if err != nil {
		tb.Fatalf("NewSolver: %v", err)
	}
	return s
}

// checkIs asserts the result of a check.
func checkIs(tb testing.TB, s *Solver, want Result, assumptions ...*Term) {
	tb.Helper()
	var got Result
	var err error
	if len(assumptions) == 0 {
		got, err = s.Check()
	} else {
		got, err = s.CheckAssumptions(assumptions...)
	}
	if err != nil {
		tb.Fatalf("check: %v", err)
	}
	if got != want {
		tb.Fatalf("check = %v, want %v (reason %q)", got, want, s.ReasonUnknown())
	}
}

// evalInt evaluates t in m with completion and reads an int64.
func evalInt(tb testing.TB, m *Model, t *Term) int64 {
	tb.Helper()
	v, err := m.Eval(t, true)
	if err != nil {
		tb.Fatalf("Eval(%s): %v", t, err)
	}
	n, err := v.Int64()
	if err != nil {
		tb.Fatalf("Int64 of %s: %v", v, err)
	}
	return n
}
