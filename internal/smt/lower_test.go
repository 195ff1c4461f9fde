package smt

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// exprGen builds random well-typed expressions over the integer variables
// a, b, c (deterministic per seed).
type exprGen struct{ s uint64 }

func (g *exprGen) n(k int) int {
	g.s = g.s*6364136223846793005 + 1442695040888963407
	return int((g.s >> 33) % uint64(k))
}

func (g *exprGen) num(depth int) expr.Expr {
	if depth == 0 || g.n(4) == 0 {
		if g.n(2) == 0 {
			return &expr.Ident{Name: []string{"a", "b", "c"}[g.n(3)]}
		}
		return &expr.IntLit{Value: int64(g.n(7)) - 3}
	}
	switch g.n(9) {
	case 0:
		return &expr.Unary{Op: expr.Neg, X: g.num(depth - 1)}
	case 1:
		return &expr.FuncCall{Fn: expr.Abs, Arg: g.num(depth - 1)}
	case 2:
		fns := []expr.Func{expr.Floor, expr.Ceil, expr.Round, expr.Trunc, expr.Sign}
		return &expr.FuncCall{Fn: fns[g.n(len(fns))], Arg: &expr.Binary{Op: expr.Div, X: g.num(depth - 1), Y: g.num(depth - 1)}}
	case 3:
		return &expr.Conditional{Cond: g.cond(depth - 1), Then: g.num(depth - 1), Else: g.num(depth - 1)}
	}
	ops := []expr.Op{expr.Add, expr.Sub, expr.Mul, expr.Mod, expr.Add}
	return &expr.Binary{Op: ops[g.n(len(ops))], X: g.num(depth - 1), Y: g.num(depth - 1)}
}

func (g *exprGen) cond(depth int) expr.Expr {
	if depth == 0 || g.n(3) == 0 {
		ops := []expr.Op{expr.Lt, expr.Le, expr.Eq, expr.Ne, expr.Gt, expr.Ge}
		x, y := g.num(depth), g.num(depth)
		if g.n(3) == 0 { // compare through true division, which may be undefined
			x = &expr.Binary{Op: expr.Div, X: x, Y: y}
			y = &expr.FloatLit{Value: 0.5}
		}
		return &expr.Binary{Op: ops[g.n(len(ops))], X: x, Y: y}
	}
	switch g.n(4) {
	case 0:
		return &expr.Unary{Op: expr.Not, X: g.cond(depth - 1)}
	case 1:
		return &expr.Binary{Op: expr.Land, X: g.cond(depth - 1), Y: g.cond(depth - 1)}
	case 2:
		return &expr.Binary{Op: expr.Lor, X: g.cond(depth - 1), Y: g.cond(depth - 1)}
	}
	return &expr.Binary{Op: expr.Implies, X: g.cond(depth - 1), Y: g.cond(depth - 1)}
}

// TestLoweringAgreesWithEvaluator: for random expressions and variable
// values, the Z3 lowering and the concrete evaluator agree on definedness
// and on the value — the property that makes a BMC witness replayable.
func TestLoweringAgreesWithEvaluator(t *testing.T) {
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	sys := &sts.System{Vars: []sts.Var{{Name: "a", Sort: sts.Int}, {Name: "b", Sort: sts.Int}, {Name: "c", Sort: sts.Int}}, Cases: map[int][]sts.Case{}, Locations: []sts.Location{{Name: "S"}}}
	enc, err := NewEncoding(ctx, sys)
	if err != nil {
		t.Fatal(err)
	}
	g := &exprGen{s: 7}
	n := 1500
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		var e expr.Expr
		if i%2 == 0 {
			e = g.num(3)
		} else {
			e = g.cond(3)
		}
		vals := expr.Vars{"a": expr.IntVal(int64(g.n(9)) - 4), "b": expr.IntVal(int64(g.n(9)) - 4), "c": expr.IntVal(int64(g.n(5)) - 2)}
		want, evalErr := expr.Eval(e, vals)
		var undef *expr.Undefined
		if evalErr != nil && !errors.As(evalErr, &undef) {
			t.Fatalf("%s: evaluator error %v", expr.Format(e), evalErr)
		}
		got, def := lowerAndSolve(t, enc, e, vals)
		if undef != nil {
			if def {
				t.Fatalf("%s with %v: evaluator says undefined (%v), lowering says defined = %s", expr.Format(e), vals, undef, got)
			}
			continue
		}
		if !def {
			t.Fatalf("%s with %v: evaluator gives %v, lowering says undefined", expr.Format(e), vals, want)
		}
		if !sameValue(want, got) {
			t.Fatalf("%s with %v: evaluator %v, lowering %s", expr.Format(e), vals, want, got)
		}
	}
}

// lowerAndSolve fixes the variables, lowers e, and reads back its value
// and definedness from a model.
func lowerAndSolve(t *testing.T, enc *Encoding, e expr.Expr, vals expr.Vars) (string, bool) {
	t.Helper()
	b := &enc.b
	v, err := enc.Lower(e, Scope{Var: enc.VarScope(0)})
	if err != nil {
		t.Fatalf("%s: %v", expr.Format(e), err)
	}
	var fix []*z3.Term
	for name, val := range vals {
		fix = append(fix, b.eq(enc.VarScope(0)(name), b.intVal(val.Int())))
	}
	fix = append(fix, enc.TakeAxioms()...)
	s := enc.Solver
	if err := s.Push(); err != nil {
		t.Fatal(err)
	}
	defer s.Pop(1)
	for _, f := range fix {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := s.Check(); err != nil || res != z3.Sat {
		t.Fatalf("%s: fixing the variables is %v, %v", expr.Format(e), res, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := m.Eval(v.Def, true)
	defined, _ := d.Bool()
	x, _ := m.Eval(v.T, true)
	if x.SortKind() == z3.SortBool {
		bv, _ := x.Bool()
		return fmt.Sprint(bv), defined
	}
	r, err := x.Rat()
	if err != nil {
		return "<" + x.String() + ">", defined
	}
	return r.RatString(), defined
}

func sameValue(want expr.Value, got string) bool {
	switch want.Type() {
	case expr.Bool:
		return fmt.Sprint(want.Bool()) == got
	case expr.Int:
		r, ok := new(big.Rat).SetString(got)
		return ok && r.IsInt() && r.Num().Int64() == want.Int()
	}
	r, ok := new(big.Rat).SetString(got)
	if !ok {
		return false
	}
	f, _ := r.Float64()
	return math.Abs(f-want.Real()) <= 1e-9*math.Max(1, math.Abs(f))
}
