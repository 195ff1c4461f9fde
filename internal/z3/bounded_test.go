package z3

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"
)

// A check under a live Context answers as CheckAssumptions does; under a
// done one it is not run.
func TestCheckContextAnswers(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x := T(c.IntConst("x"))
	p := T(c.BoolConst("p"))
	s := newTestSolver(t, c)
	if err := s.Assert(T(c.Implies(p, T(c.Gt(x, T(c.IntVal(3))))))); err != nil {
		t.Fatal(err)
	}
	if err := s.Assert(T(c.Lt(x, T(c.IntVal(2))))); err != nil {
		t.Fatal(err)
	}
	if r, err := s.CheckContext(context.Background(), time.Second); r != Sat || err != nil {
		t.Errorf("without assumptions: %v, %v; want sat", r, err)
	}
	if r, err := s.CheckContext(context.Background(), time.Second, p); r != Unsat || err != nil {
		t.Errorf("assuming p: %v, %v; want unsat", r, err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := s.CheckContext(done, time.Second); r != Unknown || err != nil {
		t.Errorf("done context: %v, %v; want unknown, nil", r, err)
	}
}

// A check that Z3 stops when interrupted (non-linear integers, which it
// cannot decide) returns Unknown at the Context's deadline, and the
// Context stays usable.
func TestCheckContextInterrupts(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x, y, z := T(c.IntConst("x")), T(c.IntConst("y")), T(c.IntConst("z"))
	cube := func(v *Term) *Term { return T(c.Mul(v, v, v)) }
	one := T(c.IntVal(1))
	s := newTestSolver(t, c)
	for _, f := range []*Term{T(c.Eq(T(c.Add(cube(x), cube(y))), cube(z))), T(c.Ge(x, one)), T(c.Ge(y, one)), T(c.Ge(z, one))} {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.CheckContext(ctx, 10*time.Second)
	if r != Unknown || (err != nil && !errors.Is(err, ErrAbandoned)) {
		t.Fatalf("%v, %v; want unknown", r, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("check took %v under a 200ms deadline", took)
	}
	if err == nil {
		if err := s.Push(); err != nil {
			t.Errorf("context unusable after an honoured interrupt: %v", err)
		}
	}
}

// sqrtChain asserts x0 = 1, x(k+1) = sqrt(3 x(k) + 2) + x(k) for four
// steps and x4 > 10: non-linear real arithmetic on which Z3 4.8.12 ignores
// interrupts for minutes (issue 27).
func sqrtChain(t *testing.T, c *Context, s *Solver) {
	T := termOK(t)
	x := T(c.RealVal(1, 1))
	for k := range 4 {
		r := T(c.RealConst("r" + itoa(int64(k))))
		arg := T(c.Add(T(c.Mul(T(c.RealVal(3, 1)), x)), T(c.RealVal(2, 1))))
		for _, f := range []*Term{T(c.Ge(r, T(c.RealVal(0, 1)))), T(c.Eq(T(c.Mul(r, r)), arg))} {
			if err := s.Assert(f); err != nil {
				t.Fatal(err)
			}
		}
		next := T(c.RealConst("x" + itoa(int64(k+1))))
		if err := s.Assert(T(c.Eq(next, T(c.Add(r, x))))); err != nil {
			t.Fatal(err)
		}
		x = next
	}
	if err := s.Assert(T(c.Gt(x, T(c.RealVal(10, 1))))); err != nil {
		t.Fatal(err)
	}
}

// A check that ignores its interrupt is abandoned grace after the
// deadline: Unknown with ErrAbandoned, and the Context is retired (calls
// fail with ErrClosed, Close is a no-op). Run in a child process, since
// the abandoned check keeps its thread busy until the process exits.
func TestCheckContextAbandons(t *testing.T) {
	if os.Getenv("STATEPROOF_Z3_ABANDON_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestCheckContextAbandons$", "-test.v")
		cmd.Env = append(os.Environ(), "STATEPROOF_Z3_ABANDON_CHILD=1")
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("child took %v", took)
		}
		t.Logf("child:\n%s", out)
		return
	}
	c := newTestContext(t)
	s := newTestSolver(t, c)
	sqrtChain(t, c, s)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.CheckContext(ctx, 100*time.Millisecond)
	took := time.Since(start)
	if took > 3*time.Second {
		t.Errorf("check took %v under a 300ms deadline and 100ms grace", took)
	}
	if r == Sat || r == Unsat {
		t.Skipf("this Z3 decided the chain (%v) in %v: nothing to abandon", r, took)
	}
	if !errors.Is(err, ErrAbandoned) {
		t.Skipf("this Z3 stopped at the interrupt (%v): nothing to abandon", err)
	}
	if err := s.Push(); !errors.Is(err, ErrClosed) {
		t.Errorf("Push after abandon: %v; want ErrClosed", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close after abandon: %v", err)
	}
}
