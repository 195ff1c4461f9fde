package z3

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCheckSmallLIA(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x, y := T(c.IntConst("x")), T(c.IntConst("y"))
	n := func(v int64) *Term { return T(c.IntVal(v)) }
	tests := []struct {
		name  string
		facts []*Term
		want  Result
	}{
		{"empty", nil, Sat},
		{"bounds", []*Term{T(c.Gt(x, n(3))), T(c.Lt(x, n(5)))}, Sat},
		{"empty interval", []*Term{T(c.Gt(x, n(3))), T(c.Lt(x, n(4)))}, Unsat},
		{"sum parity", []*Term{T(c.Eq(T(c.Add(x, x)), n(7)))}, Unsat},
		{"system", []*Term{T(c.Eq(T(c.Add(x, y)), n(10))), T(c.Eq(T(c.Sub(x, y)), n(4)))}, Sat},
		{"distinct", []*Term{T(c.Distinct(x, y)), T(c.Eq(x, y))}, Unsat},
		{"false", []*Term{T(c.False())}, Unsat},
		{"ite", []*Term{T(c.Eq(T(c.Ite(T(c.Gt(x, n(0))), x, T(c.Neg(x)))), n(-1)))}, Unsat},
		{"implies", []*Term{T(c.Implies(T(c.Gt(x, n(0))), T(c.Gt(y, n(0))))), T(c.Gt(x, n(1))), T(c.Lt(y, n(0)))}, Unsat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSolver(t, c)
			for _, f := range tc.facts {
				if err := s.Assert(f); err != nil {
					t.Fatal(err)
				}
			}
			checkIs(t, s, tc.want)
		})
	}
}

func TestModelValues(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x, y, z := T(c.IntConst("x")), T(c.IntConst("y")), T(c.IntConst("z"))
	r := T(c.RealConst("r"))
	b := T(c.BoolConst("b"))
	s := newTestSolver(t, c)
	for _, f := range []*Term{
		T(c.Eq(T(c.Add(x, y)), T(c.IntVal(10)))),
		T(c.Eq(T(c.Sub(x, y)), T(c.IntVal(4)))),
		T(c.Eq(T(c.Mul(T(c.RealVal(3, 1)), r)), T(c.RealVal(1, 1)))),
		T(c.Iff(b, T(c.Gt(x, y)))),
	} {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	checkIs(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if got := evalInt(t, m, x); got != 7 {
		t.Errorf("x = %d, want 7", got)
	}
	if got := evalInt(t, m, T(c.Mul(x, y))); got != 21 {
		t.Errorf("x*y = %d, want 21", got)
	}
	bv, err := T(m.Eval(b, true)).Bool()
	if err != nil || !bv {
		t.Errorf("b = %v, %v; want true", bv, err)
	}
	rv := T(m.Eval(r, true))
	if s, err := rv.NumeralString(); err != nil || s != "1/3" {
		t.Errorf("NumeralString(r) = %q, %v; want 1/3", s, err)
	}
	if q, err := rv.Rat(); err != nil || q.Num().Int64() != 1 || q.Denom().Int64() != 3 {
		t.Errorf("Rat(r) = %v, %v; want 1/3", q, err)
	}
	if d, err := rv.DecimalString(4); err != nil || d != "0.3333?" {
		t.Errorf("DecimalString(r) = %q, %v; want 0.3333?", d, err)
	}
	if _, err := rv.Int64(); err == nil {
		t.Error("Int64 of 1/3 succeeded")
	}
	// Completion: z is unconstrained.
	if v := T(m.Eval(z, false)); v.Kind() != KindApp || v.DeclKind() != DeclUninterpreted {
		t.Errorf("Eval(z, false) = %s, want z itself", v)
	}
	if got := evalInt(t, m, z); got != 0 {
		t.Errorf("Eval(z, true) = %d, want 0", got)
	}
	if !strings.Contains(m.String(), "x -> 7") {
		t.Errorf("model string lacks x -> 7:\n%s", m)
	}
}

func TestModelAfterUnsatIsError(t *testing.T) {
	c := newTestContext(t)
	s := newTestSolver(t, c)
	if err := s.Assert(termOK(t)(c.False())); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Unsat)
	var zerr *Error
	if _, err := s.Model(); !errors.As(err, &zerr) || zerr.Kind != ErrorInvalidUsage {
		t.Fatalf("Model after unsat: err = %v, want ErrorInvalidUsage", err)
	}
}

func TestBigAndIrrationalValues(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	const big = "1267650600228229401496703205376" // 2^100
	x, r := T(c.IntConst("x")), T(c.RealConst("r"))
	s := newTestSolver(t, c)
	for _, f := range []*Term{
		T(c.Eq(x, T(c.IntFromString(big)))),
		T(c.Eq(T(c.Mul(r, r)), T(c.RealVal(2, 1)))),
		T(c.Gt(r, T(c.RealVal(0, 1)))),
	} {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	checkIs(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	xv := T(m.Eval(x, true))
	if _, err := xv.Int64(); err == nil {
		t.Error("Int64 of 2^100 succeeded")
	}
	if got, err := xv.NumeralString(); err != nil || got != big {
		t.Errorf("NumeralString = %q, %v", got, err)
	}
	rv := T(m.Eval(r, true))
	if _, err := rv.NumeralString(); err == nil {
		t.Error("NumeralString of sqrt(2) succeeded")
	}
	if d, err := rv.DecimalString(5); err != nil || !strings.HasPrefix(d, "1.41421") {
		t.Errorf("DecimalString(sqrt 2) = %q, %v", d, err)
	}
}

func TestPushPop(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x := T(c.IntConst("x"))
	s := newTestSolver(t, c)
	if err := s.Assert(T(c.Gt(x, T(c.IntVal(0))))); err != nil {
		t.Fatal(err)
	}
	if err := s.Push(); err != nil {
		t.Fatal(err)
	}
	if n := s.NumScopes(); n != 1 {
		t.Fatalf("NumScopes = %d, want 1", n)
	}
	if err := s.Assert(T(c.Lt(x, T(c.IntVal(0))))); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Unsat)
	if err := s.Pop(1); err != nil {
		t.Fatal(err)
	}
	if n := s.NumScopes(); n != 0 {
		t.Fatalf("NumScopes = %d, want 0", n)
	}
	checkIs(t, s, Sat)
	var zerr *Error
	if err := s.Pop(1); !errors.As(err, &zerr) || zerr.Kind != ErrorIndex {
		t.Fatalf("Pop beyond scopes: err = %v, want ErrorIndex", err)
	}
	// Reset drops the outer assertion too.
	if err := s.Assert(T(c.Lt(x, T(c.IntVal(0))))); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Unsat)
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Sat)
}

// coreIDs returns the IDs of the core literals.
func coreIDs(t *testing.T, s *Solver) map[uint32]bool {
	t.Helper()
	core, err := s.UnsatCore()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[uint32]bool{}
	for _, l := range core {
		ids[l.ID()] = true
	}
	return ids
}

func TestUnsatCoreWithAssumptions(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x, y := T(c.IntConst("x")), T(c.IntConst("y"))
	p1, p2, p3 := T(c.BoolConst("p1")), T(c.BoolConst("p2")), T(c.BoolConst("p3"))
	s := newTestSolver(t, c)
	facts := []*Term{T(c.Gt(x, T(c.IntVal(5)))), T(c.Lt(x, T(c.IntVal(3)))), T(c.Gt(y, T(c.IntVal(0))))}
	for i, p := range []*Term{p1, p2, p3} {
		if err := s.Assert(T(c.Implies(p, facts[i]))); err != nil {
			t.Fatal(err)
		}
	}
	checkIs(t, s, Unsat, p1, p2, p3)
	ids := coreIDs(t, s)
	if len(ids) != 2 || !ids[p1.ID()] || !ids[p2.ID()] {
		t.Fatalf("core = %v, want exactly {p1, p2}", ids)
	}
	// Without p2 the rest is satisfiable, and the solver is unchanged.
	checkIs(t, s, Sat, p1, p3)
	notP1 := T(c.Not(p1))
	checkIs(t, s, Sat, notP1, p2)
}

func TestUnsatCoreWithTrackedAssertions(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x, y := T(c.IntConst("x")), T(c.IntConst("y"))
	p1, p2, p3 := T(c.BoolConst("t1")), T(c.BoolConst("t2")), T(c.BoolConst("t3"))
	s := newTestSolver(t, c)
	tracked := []struct{ f, p *Term }{
		{T(c.Gt(x, T(c.IntVal(5)))), p1},
		{T(c.Lt(x, T(c.IntVal(3)))), p2},
		{T(c.Gt(y, T(c.IntVal(0)))), p3},
	}
	for _, tr := range tracked {
		if err := s.AssertAndTrack(tr.f, tr.p); err != nil {
			t.Fatal(err)
		}
	}
	checkIs(t, s, Unsat)
	ids := coreIDs(t, s)
	if len(ids) != 2 || !ids[p1.ID()] || !ids[p2.ID()] {
		t.Fatalf("core = %v, want exactly {t1, t2}", ids)
	}
	if err := s.AssertAndTrack(tracked[0].f, T(c.Not(p1))); err == nil {
		t.Error("AssertAndTrack with a non-constant literal succeeded")
	}
}

// assertPigeonhole asserts that n+1 pigeons sit in n holes, one per hole:
// unsatisfiable, and exponentially hard for resolution, so a short timeout
// always stops the check.
func assertPigeonhole(t *testing.T, c *Context, s *Solver, n int) {
	t.Helper()
	T := termOK(t)
	in := make([][]*Term, n+1)
	for p := range in {
		in[p] = make([]*Term, n)
		for h := range in[p] {
			in[p][h] = T(c.BoolConst(fmt.Sprintf("p%d_h%d", p, h)))
		}
		if err := s.Assert(T(c.Or(in[p]...))); err != nil {
			t.Fatal(err)
		}
	}
	for h := 0; h < n; h++ {
		for p := 0; p <= n; p++ {
			for q := p + 1; q <= n; q++ {
				if err := s.Assert(T(c.Or(T(c.Not(in[p][h])), T(c.Not(in[q][h]))))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestTimeoutGivesUnknown(t *testing.T) {
	c := newTestContext(t)
	s := newTestSolver(t, c)
	assertPigeonhole(t, c, s, 12)
	if err := s.SetTimeout(0); err == nil {
		t.Error("SetTimeout(0) succeeded")
	}
	if err := s.SetTimeout(50); err != nil {
		t.Fatal(err)
	}
	for _, withAssumption := range []bool{false, true} {
		start := time.Now()
		var res Result
		var err error
		if withAssumption {
			res, err = s.CheckAssumptions(termOK(t)(c.BoolConst("a")))
		} else {
			res, err = s.Check()
		}
		elapsed := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if res != Unknown {
			t.Fatalf("check = %v, want unknown", res)
		}
		if elapsed > 10*time.Second {
			t.Errorf("check took %v despite a 50ms timeout", elapsed)
		}
		// docs/queries.md maps exactly "timeout" to a timeout.
		if reason := s.ReasonUnknown(); reason != "timeout" {
			t.Errorf("reason = %q, want timeout", reason)
		}
	}
	// The solver stays usable: an easy question after clearing the timeout.
	if err := s.ClearTimeout(); err != nil {
		t.Fatal(err)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Sat)
}

// TestResourceLimitIsNotATimeout checks that the "canceled" of an exhausted
// rlimit is not reported as a timeout.
func TestResourceLimitIsNotATimeout(t *testing.T) {
	c := newTestContext(t)
	s := newTestSolver(t, c)
	assertPigeonhole(t, c, s, 12)
	if err := s.SetParam("rlimit", 20000); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Unknown)
	if reason := s.ReasonUnknown(); reason == "" || reason == "timeout" {
		t.Errorf("reason = %q, want a non-timeout reason", reason)
	}
}

// TestNonlinearIsBounded: x³ + y³ = z³ over positive integers (Fermat,
// n = 3) has no solution and Z3 cannot prove it. Z3 4.8.12's default
// one-shot tactic for it ignores timeouts; the binding's solver must still
// come back, with Unknown and a reason.
func TestNonlinearIsBounded(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x, y, z := T(c.IntConst("x")), T(c.IntConst("y")), T(c.IntConst("z"))
	cube := func(v *Term) *Term { return T(c.Mul(v, v, v)) }
	one := T(c.IntVal(1))
	s := newTestSolver(t, c)
	for _, f := range []*Term{
		T(c.Eq(T(c.Add(cube(x), cube(y))), cube(z))),
		T(c.Ge(x, one)), T(c.Ge(y, one)), T(c.Ge(z, one)),
	} {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetTimeout(200); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	checkIs(t, s, Unknown)
	if elapsed := time.Since(start); elapsed > 20*time.Second {
		t.Errorf("check took %v despite a 200ms timeout", elapsed)
	}
	if reason := s.ReasonUnknown(); reason == "" {
		t.Error("empty reason for unknown")
	} else {
		t.Logf("reason: %q", reason)
	}
}

func TestSolverParams(t *testing.T) {
	c := newTestContext(t)
	s := newTestSolver(t, c)
	good := []struct {
		name  string
		value any
	}{
		{"random_seed", 42},
		{"random_seed", uint32(7)},
		{"timeout", uint(1000)},
		{"unsat_core", true},
		{"max_conflicts", uint64(1000000)},
		{"rlimit", uint64(0)},
	}
	for _, p := range good {
		if err := s.SetParam(p.name, p.value); err != nil {
			t.Errorf("SetParam(%s, %v): %v", p.name, p.value, err)
		}
	}
	bad := []struct {
		name  string
		value any
	}{
		{"no_such_parameter", 3},
		{"random_seed", -1},
		{"random_seed", int64(1) << 40},
		{"timeout", []int{1}},
		{"ctrl_c", true},
	}
	for _, p := range bad {
		err := s.SetParam(p.name, p.value)
		if err == nil {
			t.Errorf("SetParam(%s, %v) succeeded", p.name, p.value)
			continue
		}
		if strings.Contains(err.Error(), "Legal parameters") {
			t.Errorf("error message not trimmed: %v", err)
		}
	}
	// The solver still works after a rejected parameter.
	checkIs(t, s, Sat)
}

// Parameters given at creation are validated when Z3 builds the solver,
// so a wrong one fails NewSolver itself, and a right one takes effect.
func TestParamsAtCreation(t *testing.T) {
	c := newTestContext(t)
	for _, p := range []Param{{"no_such_parameter", 3}, {"ctrl_c", true}, {"random_seed", -1}} {
		if _, err := c.NewSolver(p); err == nil {
			t.Errorf("NewSolver(%v) succeeded", p)
		}
	}
	s, err := c.NewSolver(Param{"timeout", 1}, Param{"random_seed", 3})
	if err != nil {
		t.Fatal(err)
	}
	if s.timeout != time.Millisecond {
		t.Errorf("timeout given at creation not recorded: %v", s.timeout)
	}
	checkIs(t, s, Sat)
	if _, err := c.NewDefaultSolver(Param{"ignore_solver1", true}); err != nil {
		t.Errorf("a combined solver's parameter at creation: %v", err)
	}
}

func TestSolverString(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x := T(c.IntConst("counter"))
	s := newTestSolver(t, c)
	if err := s.Assert(T(c.Ge(x, T(c.IntVal(3))))); err != nil {
		t.Fatal(err)
	}
	dump := s.String()
	for _, want := range []string{"(declare-fun counter () Int)", "(assert (>= counter 3))"} {
		if !strings.Contains(dump, want) {
			t.Errorf("solver dump lacks %q:\n%s", want, dump)
		}
	}
}

func TestAssertRejectsNonFormulas(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	s := newTestSolver(t, c)
	if err := s.Assert(T(c.IntVal(1))); err == nil {
		t.Error("Assert of an Int succeeded")
	}
	if err := s.Assert(nil); err == nil {
		t.Error("Assert(nil) succeeded")
	}
	if _, err := s.CheckAssumptions(T(c.IntConst("i"))); err == nil {
		t.Error("CheckAssumptions with an Int succeeded")
	}
	var nilSolver *Solver
	if err := nilSolver.Assert(T(c.True())); err == nil {
		t.Error("Assert on nil Solver succeeded")
	}
}
