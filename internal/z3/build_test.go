package z3

import (
	"errors"
	"testing"
)

func TestIllSortedConstructionsAreErrors(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	b, i, r := T(c.BoolConst("b")), T(c.IntConst("i")), T(c.RealConst("r"))
	tests := []struct {
		name string
		make func() (*Term, error)
	}{
		{"add bool int", func() (*Term, error) { return c.Add(b, i) }},
		{"add int real", func() (*Term, error) { return c.Add(i, r) }},
		{"mul bool", func() (*Term, error) { return c.Mul(b, b) }},
		{"not int", func() (*Term, error) { return c.Not(i) }},
		{"and int", func() (*Term, error) { return c.And(b, i) }},
		{"implies real", func() (*Term, error) { return c.Implies(r, b) }},
		{"eq bool int", func() (*Term, error) { return c.Eq(b, i) }},
		{"eq int real", func() (*Term, error) { return c.Eq(i, r) }},
		{"lt int real", func() (*Term, error) { return c.Lt(i, r) }},
		{"le bool", func() (*Term, error) { return c.Le(b, b) }},
		{"intdiv real", func() (*Term, error) { return c.IntDiv(i, r) }},
		{"mod real", func() (*Term, error) { return c.Mod(r, r) }},
		{"realdiv int", func() (*Term, error) { return c.RealDiv(i, i) }},
		{"toreal real", func() (*Term, error) { return c.ToReal(r) }},
		{"toint int", func() (*Term, error) { return c.ToInt(i) }},
		{"isint int", func() (*Term, error) { return c.IsInt(i) }},
		{"ite int cond", func() (*Term, error) { return c.Ite(i, i, i) }},
		{"ite mixed branches", func() (*Term, error) { return c.Ite(b, i, r) }},
		{"distinct mixed", func() (*Term, error) { return c.Distinct(i, b) }},
		{"atmost int", func() (*Term, error) { return c.AtMost(1, b, i) }},
		{"neg bool", func() (*Term, error) { return c.Neg(b) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.make()
			if err == nil {
				t.Fatalf("got %s, want an error", got)
			}
			var zerr *Error
			if !errors.As(err, &zerr) || zerr.Kind != ErrorSort {
				t.Fatalf("err = %v, want a sort error", err)
			}
		})
	}
	// The context is still healthy afterwards.
	if _, err := c.Add(i, i); err != nil {
		t.Fatalf("Add after errors: %v", err)
	}
}

func TestArgumentMisuseIsError(t *testing.T) {
	c := newTestContext(t)
	other := newTestContext(t)
	T := termOK(t)
	x := T(c.IntConst("x"))
	foreign := T(other.IntConst("x"))
	tests := []struct {
		name string
		make func() (*Term, error)
	}{
		{"nil arg", func() (*Term, error) { return c.Add(x, nil) }},
		{"foreign arg", func() (*Term, error) { return c.Add(x, foreign) }},
		{"foreign sort", func() (*Term, error) { return c.Const("y", other.IntSort()) }},
		{"nil sort", func() (*Term, error) { return c.Const("y", nil) }},
		{"no addends", func() (*Term, error) { return c.Add() }},
		{"empty distinct", func() (*Term, error) { return c.Distinct() }},
		{"empty atmost", func() (*Term, error) { return c.AtMost(1) }},
		{"bad int string", func() (*Term, error) { return c.IntFromString("12a") }},
		{"empty int string", func() (*Term, error) { return c.IntFromString("-") }},
		{"bad real string", func() (*Term, error) { return c.RealFromString("1/0x3") }},
		{"zero denominator", func() (*Term, error) { return c.RealVal(1, 0) }},
		{"zero denominator string", func() (*Term, error) { return c.RealFromString("1/0") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := tc.make(); err == nil {
				t.Fatalf("got %s, want an error", got)
			}
		})
	}
	s := newTestSolver(t, other)
	b := T(c.BoolConst("b"))
	if err := s.Assert(b); err == nil {
		t.Error("asserting a foreign term succeeded")
	}
}

func TestNumerals(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	tests := []struct {
		name string
		term *Term
		want string
		kind SortKind
	}{
		{"int64", T(c.IntVal(-42)), "-42", SortInt},
		{"int min", T(c.IntVal(-9223372036854775808)), "-9223372036854775808", SortInt},
		{"big int", T(c.IntFromString("+123456789012345678901234567890")), "123456789012345678901234567890", SortInt},
		{"rational", T(c.RealVal(6, -4)), "-3/2", SortReal},
		{"integral real", T(c.RealVal(4, 2)), "2", SortReal},
		{"decimal", T(c.RealFromString("2.5")), "5/2", SortReal},
		{"exponent", T(c.RealFromString("1e-3")), "1/1000", SortReal},
		{"fraction", T(c.RealFromString("-10/4")), "-5/2", SortReal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.term.NumeralString()
			if err != nil || got != tc.want {
				t.Fatalf("NumeralString = %q, %v; want %q", got, err, tc.want)
			}
			if k := tc.term.SortKind(); k != tc.kind {
				t.Fatalf("sort kind = %v, want %v", k, tc.kind)
			}
			if k := tc.term.Kind(); k != KindNumeral {
				t.Fatalf("kind = %v, want numeral", k)
			}
		})
	}
	if v, err := T(c.IntVal(-9223372036854775808)).Int64(); err != nil || v != -9223372036854775808 {
		t.Errorf("Int64 round trip = %d, %v", v, err)
	}
	if _, err := T(c.IntConst("x")).NumeralString(); err == nil {
		t.Error("NumeralString of a constant succeeded")
	}
	if _, err := T(c.IntConst("x")).Bool(); err == nil {
		t.Error("Bool of a constant succeeded")
	}
}

// TestIntDivModSemantics pins down Z3's Euclidean integer division.
func TestIntDivModSemantics(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	tests := []struct{ a, b, div, mod, rem int64 }{
		{7, 2, 3, 1, 1},
		{-7, 2, -4, 1, 1},
		{7, -2, -3, 1, -1},
		{-7, -2, 4, 1, -1},
		{6, 3, 2, 0, 0},
		{-6, 4, -2, 2, 2},
	}
	for _, tc := range tests {
		a, b := T(c.IntVal(tc.a)), T(c.IntVal(tc.b))
		// Through the simplifier and through a model of free variables.
		x, y := T(c.IntConst("x")), T(c.IntConst("y"))
		s := newTestSolver(t, c)
		for _, f := range []*Term{T(c.Eq(x, a)), T(c.Eq(y, b))} {
			if err := s.Assert(f); err != nil {
				t.Fatal(err)
			}
		}
		checkIs(t, s, Sat)
		m, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range []struct {
			name string
			f    func(p, q *Term) (*Term, error)
			want int64
		}{{"div", c.IntDiv, tc.div}, {"mod", c.Mod, tc.mod}, {"rem", c.Rem, tc.rem}} {
			lit, err := T(op.f(a, b)).Simplify()
			if err != nil {
				t.Fatal(err)
			}
			if got, err := lit.Int64(); err != nil || got != op.want {
				t.Errorf("simplify %d %s %d = %d, %v; want %d", tc.a, op.name, tc.b, got, err, op.want)
			}
			if got := evalInt(t, m, T(op.f(x, y))); got != op.want {
				t.Errorf("model %d %s %d = %d; want %d", tc.a, op.name, tc.b, got, op.want)
			}
		}
	}
}

// TestDivisionByZeroIsUnspecified documents that x div 0 is a free value.
func TestDivisionByZeroIsUnspecified(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	x := T(c.IntConst("x"))
	q := T(c.IntDiv(x, T(c.IntVal(0))))
	for _, v := range []int64{5, -17} {
		s := newTestSolver(t, c)
		if err := s.Assert(T(c.Eq(q, T(c.IntVal(v))))); err != nil {
			t.Fatal(err)
		}
		checkIs(t, s, Sat)
	}
}

func TestRealArithmetic(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	r := T(c.RealConst("r"))
	i := T(c.IntConst("i"))
	s := newTestSolver(t, c)
	// r = 7/2, i = to_int(r) = 3, is_int(r) false, to_real(i) / 2 = 3/2
	for _, f := range []*Term{
		T(c.Eq(r, T(c.RealDiv(T(c.RealVal(7, 1)), T(c.RealVal(2, 1)))))),
		T(c.Eq(i, T(c.ToInt(r)))),
		T(c.Not(T(c.IsInt(r)))),
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
	if got := evalInt(t, m, i); got != 3 {
		t.Errorf("to_int(7/2) = %d, want 3", got)
	}
	half := T(m.Eval(T(c.RealDiv(T(c.ToReal(i)), T(c.RealVal(2, 1)))), true))
	if got, err := half.NumeralString(); err != nil || got != "3/2" {
		t.Errorf("to_real(i)/2 = %q, %v; want 3/2", got, err)
	}
	if err := s.Assert(T(c.IsInt(r))); err != nil {
		t.Fatal(err)
	}
	checkIs(t, s, Unsat)
}

func TestCardinality(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	a, b, d := T(c.BoolConst("a")), T(c.BoolConst("b")), T(c.BoolConst("d"))
	tests := []struct {
		name  string
		facts []*Term
		want  Result
	}{
		{"atmost 2 of 3 all true", []*Term{T(c.AtMost(2, a, b, d)), a, b, d}, Unsat},
		{"atmost 2 of 3 two true", []*Term{T(c.AtMost(2, a, b, d)), a, b}, Sat},
		{"atmost 0", []*Term{T(c.AtMost(0, a, b)), T(c.Or(a, b))}, Unsat},
		{"atleast 2 of 3 two false", []*Term{T(c.AtLeast(2, a, b, d)), T(c.Not(a)), T(c.Not(b))}, Unsat},
		{"atleast 2 of 3", []*Term{T(c.AtLeast(2, a, b, d)), T(c.Not(a))}, Sat},
		{"atleast more than n", []*Term{T(c.AtLeast(3, a, b))}, Unsat},
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
	// In a model of "at most 2 of 3, a and b", d is false.
	s := newTestSolver(t, c)
	for _, f := range []*Term{T(c.AtMost(2, a, b, d)), a, b} {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	checkIs(t, s, Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if v, err := T(m.Eval(d, true)).Bool(); err != nil || v {
		t.Errorf("d = %v, %v; want false", v, err)
	}
	if k := T(c.AtMost(2, a, b, d)).DeclKind(); k != DeclAtMost {
		t.Errorf("AtMost decl kind = %v", k)
	}
}

func TestConnectivesAndInspection(t *testing.T) {
	c := newTestContext(t)
	T := termOK(t)
	a, b := T(c.BoolConst("a")), T(c.BoolConst("b"))
	x := T(c.IntConst("x"))
	tests := []struct {
		term  *Term
		kind  DeclKind
		name  string
		nargs int
	}{
		{T(c.And(a, b)), DeclAnd, "and", 2},
		{T(c.Or(a, b)), DeclOr, "or", 2},
		{T(c.Not(a)), DeclNot, "not", 1},
		{T(c.Implies(a, b)), DeclImplies, "=>", 2},
		{T(c.Xor(a, b)), DeclXor, "xor", 2},
		{T(c.Iff(a, b)), DeclEq, "=", 2},
		{T(c.Ite(a, x, x)), DeclIte, "if", 3},
		{T(c.Le(x, x)), DeclLe, "<=", 2},
		{T(c.Add(x, x, x)), DeclAdd, "+", 3},
		{T(c.Neg(x)), DeclNeg, "-", 1},
		{T(c.Mod(x, x)), DeclMod, "mod", 2},
		{T(c.ToReal(x)), DeclToReal, "to_real", 1},
		{x, DeclUninterpreted, "x", 0},
		{T(c.True()), DeclTrue, "true", 0},
	}
	for _, tc := range tests {
		if k := tc.term.DeclKind(); k != tc.kind {
			t.Errorf("%s: DeclKind = %v, want %v", tc.term, k, tc.kind)
		}
		if n, err := tc.term.DeclName(); err != nil || n != tc.name {
			t.Errorf("%s: DeclName = %q, %v; want %q", tc.term, n, err, tc.name)
		}
		if n := tc.term.NumArgs(); n != tc.nargs {
			t.Errorf("%s: NumArgs = %d, want %d", tc.term, n, tc.nargs)
		}
		args, err := tc.term.Args()
		if err != nil || len(args) != tc.nargs {
			t.Errorf("%s: Args = %v, %v", tc.term, args, err)
		}
	}
	and := T(c.And(a, b))
	if arg := T(and.Arg(1)); !arg.Equal(b) || arg.ID() != b.ID() {
		t.Errorf("Arg(1) of %s = %s, want b", and, arg)
	}
	var zerr *Error
	if _, err := and.Arg(2); !errors.As(err, &zerr) || zerr.Kind != ErrorIndex {
		t.Errorf("Arg(2) err = %v, want index error", err)
	}
	if got := and.String(); got != "(and a b)" {
		t.Errorf("String = %q", got)
	}
	if tr := T(c.And()); !tr.IsTrue() {
		t.Errorf("And() = %s, want true", tr)
	}
	if fa := T(c.Or()); !fa.IsFalse() {
		t.Errorf("Or() = %s, want false", fa)
	}
	if d := T(c.Distinct(x)); !d.IsTrue() {
		t.Errorf("Distinct(x) = %s, want true", d)
	}
	simp := T(T(c.And(a, T(c.Not(a)))).Simplify())
	if !simp.IsFalse() {
		t.Errorf("Simplify(a and not a) = %s, want false", simp)
	}
	sum := T(T(c.Add(T(c.IntVal(2)), T(c.IntVal(3)))).Simplify())
	if v, err := sum.Int64(); err != nil || v != 5 {
		t.Errorf("Simplify(2+3) = %d, %v", v, err)
	}
	srt, err := x.Sort()
	if err != nil || srt.Kind() != SortInt || srt.String() != "Int" {
		t.Errorf("Sort(x) = %v, %v", srt, err)
	}
	if T(c.IntConst("x")).ID() != x.ID() {
		t.Error("same constant built twice has different IDs")
	}
}
