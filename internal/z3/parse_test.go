package z3

import (
	"errors"
	"testing"
)

const hornProblem = `
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int))
  (=> (and (inv x y) (= x1 (+ x 1))) (inv x1 y))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (< x 0)) false)))
(check-sat)
`

func TestParseHornClauses(t *testing.T) {
	c := newTestContext(t)
	fs, err := c.ParseSMTLIB2String(hornProblem)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 3 {
		t.Fatalf("got %d formulas, want 3", len(fs))
	}
	// Second clause: forall x y x1. (inv x y) ∧ x1 = x + 1 ⇒ inv x1 y.
	q, err := fs[1].Quantifier()
	if err != nil {
		t.Fatal(err)
	}
	if fs[1].Kind() != KindQuantifier || !q.Forall {
		t.Fatalf("clause 2 is not a forall: %s", fs[1])
	}
	wantNames := []string{"x", "y", "x1"}
	if len(q.Names) != 3 || len(q.Sorts) != 3 {
		t.Fatalf("bound = %v", q.Names)
	}
	for i, n := range wantNames {
		if q.Names[i] != n || q.Sorts[i].Kind() != SortInt {
			t.Errorf("bound %d = %s : %s, want %s : Int", i, q.Names[i], q.Sorts[i], n)
		}
	}
	body := q.Body
	if body.DeclKind() != DeclImplies {
		t.Fatalf("body = %s, want an implication", body)
	}
	head := termOK(t)(body.Arg(1))
	if name, err := head.DeclName(); err != nil || name != "inv" || head.DeclKind() != DeclUninterpreted {
		t.Fatalf("head = %s (%q, %v), want an inv application", head, name, err)
	}
	// inv x1 y: x1 is the last bound variable (index 0), y the middle (1).
	wantIdx := []int{0, 1}
	for i, w := range wantIdx {
		arg := termOK(t)(head.Arg(i))
		if arg.Kind() != KindVar {
			t.Fatalf("head arg %d = %s, want a bound variable", i, arg)
		}
		idx, err := arg.VarIndex()
		if err != nil || idx != w {
			t.Errorf("head arg %d index = %d, %v; want %d", i, idx, err, w)
		}
		if got := q.Names[len(q.Names)-1-idx]; got != wantNames[[]int{2, 1}[i]] {
			t.Errorf("head arg %d names %s", i, got)
		}
		if arg.SortKind() != SortInt {
			t.Errorf("head arg %d sort = %v", i, arg.SortKind())
		}
	}
	// Walk the whole problem: count the inv applications.
	if n := countApps(t, fs, "inv"); n != 4 {
		t.Errorf("found %d inv applications, want 4", n)
	}
	// The query clause ends in false.
	q3, err := fs[2].Quantifier()
	if err != nil {
		t.Fatal(err)
	}
	if concl := termOK(t)(q3.Body.Arg(1)); !concl.IsFalse() {
		t.Errorf("query conclusion = %s, want false", concl)
	}
	// Loose bound variables cannot be asserted.
	s := newTestSolver(t, c)
	if err := s.Assert(termOK(t)(head.Arg(0))); err == nil {
		t.Error("asserting a bound variable succeeded")
	}
}

// countApps counts applications of the named uninterpreted symbol.
func countApps(t *testing.T, ts []*Term, name string) int {
	t.Helper()
	n := 0
	for _, term := range ts {
		switch term.Kind() {
		case KindQuantifier:
			q, err := term.Quantifier()
			if err != nil {
				t.Fatal(err)
			}
			n += countApps(t, []*Term{q.Body}, name)
		case KindApp:
			if d, err := term.DeclName(); err == nil && d == name && term.DeclKind() == DeclUninterpreted {
				n++
			}
			args, err := term.Args()
			if err != nil {
				t.Fatal(err)
			}
			n += countApps(t, args, name)
		}
	}
	return n
}

func TestParseGroundAndSolve(t *testing.T) {
	c := newTestContext(t)
	fs, err := c.ParseSMTLIB2String(`
		(declare-const x Int) (declare-const r Real)
		(assert (and (> x 2) (< x 4)))
		(assert (= r (/ 1.0 4.0)))`)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSolver(t, c)
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	checkIs(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	// The parsed x is the same term as one built by name.
	x := termOK(t)(c.IntConst("x"))
	if got := evalInt(t, m, x); got != 3 {
		t.Errorf("x = %d, want 3", got)
	}
}

func TestParseErrors(t *testing.T) {
	c := newTestContext(t)
	tests := []struct{ name, src string }{
		{"truncated", "(assert (> "},
		{"undeclared", "(assert (> y 0))"},
		{"ill-sorted", "(declare-const b Bool) (assert (> b 0))"},
		{"garbage", "))) not smt"},
		{"bad option", "(set-option :no-such-option 1)"},
		{"non-bool assert", "(declare-const x Int) (assert x)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := c.ParseSMTLIB2String(tc.src)
			if err == nil {
				t.Fatalf("parsed %v, want an error", fs)
			}
			var zerr *Error
			if !errors.As(err, &zerr) || zerr.Kind != ErrorParse || zerr.Message == "" {
				t.Fatalf("err = %v, want a parse error with a message", err)
			}
			t.Logf("%v", err)
		})
	}
	// The context still works.
	if fs, err := c.ParseSMTLIB2String("(assert true)"); err != nil || len(fs) != 1 || !fs[0].IsTrue() {
		t.Fatalf("parse after errors: %v, %v", fs, err)
	}
	if fs, err := c.ParseSMTLIB2String(""); err != nil || len(fs) != 0 {
		t.Fatalf("empty parse: %v, %v", fs, err)
	}
}
