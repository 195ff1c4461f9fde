package z3

import (
	"testing"
	"time"
)

func TestHornSolverSafe(t *testing.T) {
	c := newTestContext(t)
	fs, err := c.ParseSMTLIB2String(`
(declare-fun inv (Int Int) Bool)
(assert (forall ((a Int) (b Int)) (=> (and (= a 1) (= b 1)) (inv a b))))
(assert (forall ((a Int) (b Int) (a1 Int) (b1 Int)) (=> (and (inv a b) (= a1 b) (= b1 (+ a b))) (inv a1 b1))))
(assert (forall ((a Int) (b Int)) (=> (and (inv a b) (<= a 0)) false)))`)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.NewSolverForLogic("HORN")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetTimeout(5000); err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	r, err := s.Check()
	if err != nil || r != Sat {
		t.Fatalf("check = %v, %v (%s)", r, err, s.ReasonUnknown())
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	body, arity, err := m.FuncElse("inv")
	if err != nil || arity != 2 {
		t.Fatalf("FuncElse = %v, %d, %v", body, arity, err)
	}
	a, b := termOK(t)(c.IntConst("a")), termOK(t)(c.IntConst("b"))
	inst := termOK(t)(body.SubstituteVars(a, b))
	// The interpretation must hold initially and exclude a <= 0.
	chk := newTestSolver(t, c)
	one := termOK(t)(c.IntVal(1))
	_ = chk.Assert(termOK(t)(c.Eq(a, one)))
	_ = chk.Assert(termOK(t)(c.Eq(b, one)))
	_ = chk.Assert(termOK(t)(c.Not(inst)))
	checkIs(t, chk, Unsat)
	if _, _, err := m.FuncElse("nope"); err == nil {
		t.Error("FuncElse of an unknown name succeeded")
	}
}

func TestHornSolverUnsafeAndInterrupt(t *testing.T) {
	c := newTestContext(t)
	fs, err := c.ParseSMTLIB2String(`
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 1))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (= x 3)) false)))`)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.NewSolverForLogic("HORN")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := s.Check(); err != nil || r != Unsat {
		t.Fatalf("check = %v, %v", r, err)
	}
	// Interrupt before a check is harmless; after one it does nothing.
	timer := time.AfterFunc(time.Millisecond, s.Interrupt)
	defer timer.Stop()
}
