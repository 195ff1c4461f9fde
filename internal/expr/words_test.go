package expr

import (
	"math"
	"math/rand/v2"
	"testing"
)

// intTree builds random trees over the Int variables a and b, mostly of
// the operations CompileInts accepts, with operands near the int64 edges.
func intTree(r *rand.Rand, depth int) Expr {
	if depth <= 0 || r.IntN(4) == 0 {
		switch r.IntN(6) {
		case 0:
			return &IntLit{Value: []int64{0, 1, 2, 7, -3, math.MaxInt64, math.MinInt64}[r.IntN(7)]}
		case 1:
			return &BoolLit{Value: r.IntN(2) == 0}
		case 2:
			return &FloatLit{Value: 0.5}
		}
		return &Ident{Name: []string{"a", "b"}[r.IntN(2)]}
	}
	if r.IntN(5) == 0 {
		return &Unary{Op: []Op{Neg, Plus, Not}[r.IntN(3)], X: intTree(r, depth-1)}
	}
	ops := []Op{Add, Sub, Mul, Mod, BitAnd, BitOr, BitXor, Div, Pow, Eq, Ne, Lt, Le, Gt, Ge, Land, Lor, Lxor, Implies, Iff}
	return &Binary{Op: ops[r.IntN(len(ops))], X: intTree(r, depth-1), Y: intTree(r, depth-1)}
}

// Whenever an IntProgram answers, Eval gives the same value without an
// error; and it answers for most trees it compiles.
func TestIntProgramAsEval(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	slot := func(name string) (int, bool) {
		switch name {
		case "a":
			return 0, true
		case "b":
			return 1, true
		}
		return 0, false
	}
	vals := []int64{0, 1, -1, 2, 5, math.MaxInt64, math.MinInt64, 1 << 40}
	compiled, answered := 0, 0
	for range 20000 {
		e := intTree(r, 4)
		p, isBool, ok := CompileInts(e, slot)
		if !ok {
			continue
		}
		compiled++
		w := []int64{vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]}
		got, ok := p.Run(w)
		want, err := Eval(e, Vars(map[string]Value{"a": IntVal(w[0]), "b": IntVal(w[1])}))
		if !ok {
			continue
		}
		answered++
		switch {
		case err != nil:
			t.Fatalf("%s at a=%d b=%d: words give %d, Eval fails: %v", Format(e), w[0], w[1], got, err)
		case isBool && (want.Type() != Bool || b2w(want.Bool()) != got):
			t.Fatalf("%s at a=%d b=%d: words give %d, Eval %v", Format(e), w[0], w[1], got, want)
		case !isBool && (!want.IsInt64() || want.Int() != got):
			t.Fatalf("%s at a=%d b=%d: words give %d, Eval %v", Format(e), w[0], w[1], got, want)
		}
	}
	if compiled < 2000 || answered < compiled/3 {
		t.Fatalf("%d trees compiled, %d answered: the test tests too little", compiled, answered)
	}
}
