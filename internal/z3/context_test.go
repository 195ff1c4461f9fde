package z3

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestVersion(t *testing.T) {
	if v := Version(); !strings.HasPrefix(v, "4.") {
		t.Fatalf("Version = %q", v)
	}
}

func TestClosedContextIsAnErrorNotACrash(t *testing.T) {
	t.Run("Close", func(t *testing.T) {
		closedContextIsAnError(t, func(c *Context) error { return c.Close() })
	})
	t.Run("Abandon", func(t *testing.T) {
		closedContextIsAnError(t, func(c *Context) error { c.Abandon(); return nil })
	})
}

// closedContextIsAnError checks every kind of call on a Context after
// retire (Close or Abandon) fails with ErrClosed and no crash.
func closedContextIsAnError(t *testing.T, retire func(*Context) error) {
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	T := termOK(t)
	x := T(c.IntConst("x"))
	s := newTestSolver(t, c)
	if err := s.Assert(T(c.Gt(x, T(c.IntVal(0))))); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if err := retire(c); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close after retiring: %v", err)
	}
	calls := map[string]error{}
	_, calls["IntConst"] = c.IntConst("y")
	_, calls["Add"] = c.Add(x, x)
	_, calls["NewSolver"] = c.NewSolver()
	calls["Assert"] = s.Assert(x)
	_, calls["Check"] = s.Check()
	_, calls["Eval"] = m.Eval(x, true)
	_, calls["Simplify"] = x.Simplify()
	_, calls["Parse"] = c.ParseSMTLIB2String("(assert true)")
	for name, err := range calls {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close: err = %v, want ErrClosed", name, err)
		}
	}
	if got := x.String(); got != "<invalid term>" {
		t.Errorf("String after Close = %q", got)
	}
	if s.NumScopes() != 0 || x.Kind() != KindUnknown || x.IsTrue() {
		t.Error("queries after Close did not return zero values")
	}
	// Cleanups of the dead objects must not touch the deleted context.
	x, s, m = nil, nil, nil
	runtime.GC()
	runtime.GC()
}

func TestCleanupsReleaseReferences(t *testing.T) {
	c := newTestContext(t)
	build := func() {
		for i := 0; i < 2000; i++ {
			x, err := c.IntConst(fmt.Sprintf("v%d", i))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Add(x, x); err != nil {
				t.Fatal(err)
			}
		}
	}
	build()
	deadline := time.Now().Add(5 * time.Second)
	for c.life.released.Load() == 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		// Any call drains the queue.
		if _, err := c.True(); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.life.released.Load(); n == 0 {
		t.Fatal("no reference was released after GC")
	}
	// Everything still works after the releases.
	s := newTestSolver(t, c)
	x := termOK(t)(c.IntConst("v1"))
	if err := s.Assert(termOK(t)(c.Eq(x, termOK(t)(c.IntVal(1))))); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Sat)
}

func TestNilContext(t *testing.T) {
	var c *Context
	if _, err := c.IntConst("x"); err == nil {
		t.Error("IntConst on nil Context succeeded")
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close on nil Context: %v", err)
	}
	var term *Term
	if term.String() != "<invalid term>" || term.Kind() != KindUnknown {
		t.Error("nil Term queries")
	}
	if _, err := term.Arg(0); err == nil {
		t.Error("Arg on nil Term succeeded")
	}
}

// TestManyContextsConcurrently runs independent contexts in parallel; run
// with -race. Each goroutine also triggers GC so that cleanups run while
// other contexts are busy inside Z3.
func TestManyContextsConcurrently(t *testing.T) {
	const workers, rounds = 8, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				if err := solveChain(20+w, r%2 == 0); err != nil {
					errs <- fmt.Errorf("worker %d round %d: %w", w, r, err)
					return
				}
				runtime.GC()
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// solveChain builds x0 = 0, x_{i+1} = x_i + 1 in a fresh context and checks
// that x_n = n (sat) or x_n < n (unsat), with a tracked core in the latter.
func solveChain(n int, sat bool) error {
	c, err := NewContext()
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := c.NewSolver()
	if err != nil {
		return err
	}
	last, err := buildChain(c, s, n)
	if err != nil {
		return err
	}
	goal, err := c.IntVal(int64(n))
	if err != nil {
		return err
	}
	var f *Term
	if sat {
		f, err = c.Eq(last, goal)
	} else {
		f, err = c.Lt(last, goal)
	}
	if err != nil {
		return err
	}
	p, err := c.BoolConst("goal")
	if err != nil {
		return err
	}
	if err := s.AssertAndTrack(f, p); err != nil {
		return err
	}
	res, err := s.Check()
	if err != nil {
		return err
	}
	want := Unsat
	if sat {
		want = Sat
	}
	if res != want {
		return fmt.Errorf("check = %v, want %v", res, want)
	}
	if !sat {
		core, err := s.UnsatCore()
		if err != nil {
			return err
		}
		if len(core) != 1 || !core[0].Equal(p) {
			return fmt.Errorf("core = %v, want [goal]", core)
		}
	}
	return nil
}

// buildChain asserts x0 = 0 and x_{i+1} = x_i + 1 for i < n; it returns x_n.
func buildChain(c *Context, s *Solver, n int) (*Term, error) {
	prev, err := c.IntConst("x0")
	if err != nil {
		return nil, err
	}
	zero, err := c.IntVal(0)
	if err != nil {
		return nil, err
	}
	one, err := c.IntVal(1)
	if err != nil {
		return nil, err
	}
	f, err := c.Eq(prev, zero)
	if err != nil {
		return nil, err
	}
	if err := s.Assert(f); err != nil {
		return nil, err
	}
	for i := 1; i <= n; i++ {
		next, err := c.IntConst(fmt.Sprintf("x%d", i))
		if err != nil {
			return nil, err
		}
		sum, err := c.Add(prev, one)
		if err != nil {
			return nil, err
		}
		eq, err := c.Eq(next, sum)
		if err != nil {
			return nil, err
		}
		if err := s.Assert(eq); err != nil {
			return nil, err
		}
		prev = next
	}
	return prev, nil
}

func TestErrorMessages(t *testing.T) {
	tests := []struct{ in, want string }{
		{"unknown parameter 'foo'\nLegal parameters are:\n  a (bool)\n", "unknown parameter 'foo'"},
		{"(error \"line 1 column 12: unknown constant y\")\n", "line 1 column 12: unknown constant y"},
		{"", "unspecified Z3 error"},
		{"a\n\nb", "a; b"},
		{"(error \"line 1 column 29: unknown parameter 'x'\nLegal parameters are:\n  a\")", "line 1 column 29: unknown parameter 'x'"},
	}
	for _, tc := range tests {
		if got := cleanMessage(tc.in); got != tc.want {
			t.Errorf("cleanMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Under Hold a term dropped and built again keeps its ID, whatever the
// garbage collector did meanwhile: Z3 reuses the IDs of dead terms, so
// without the hold a term built after the release takes the dropped
// term's ID, and the rebuilt term another.
func TestHoldKeepsIDs(t *testing.T) {
	c := newTestContext(t)
	end := c.Hold()
	x := termOK(t)(c.IntConst("x"))
	id := termOK(t)(c.Add(x, termOK(t)(c.IntVal(41)))).ID()
	// Only the wrapper of x+41 (and of 41) is unreachable now; wait for
	// its cleanup to queue the release.
	deadline := time.Now().Add(5 * time.Second)
	for c.life.npending.Load() == 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if c.life.npending.Load() == 0 {
		t.Fatal("no cleanup ran after GC")
	}
	// Without the hold these two would take the freed IDs of 41 and x+41.
	y, z := termOK(t)(c.IntConst("y")), termOK(t)(c.IntConst("z"))
	if again := termOK(t)(c.Add(x, termOK(t)(c.IntVal(41)))).ID(); again != id {
		t.Errorf("x+41 rebuilt under Hold has ID %d, was %d", again, id)
	}
	runtime.KeepAlive(y)
	runtime.KeepAlive(z)
	if c.life.released.Load() != 0 {
		t.Errorf("%d references given back under Hold", c.life.released.Load())
	}
	end()
	end() // a second call is a no-op
	termOK(t)(c.True())
	if c.life.released.Load() == 0 {
		t.Error("the held references were not given back after the hold ended")
	}
	if c.holds != 0 {
		t.Errorf("holds = %d after end, want 0", c.holds)
	}
}
