package expr

import (
	"math/rand/v2"
	"testing"
)

// treeGen builds random trees of the shapes the parser produces.
type treeGen struct{ r *rand.Rand }

var (
	genNames   = []string{"x", "y", "where", "cycle", "current", "e"}
	genFloats  = []float64{0, 0.5, 1, 100, 1e15, 1e16, 1e20, 1e-4, 1e-5, 1.7976931348623157e308, 5e-324}
	genStrings = []string{"", "Root.A", `q"uo'te`, "back\\slash", "nl\n", "é", "\xff", "\x00"}
	genBinOps  = []Op{Add, Sub, Mul, Div, Mod, Pow, BitAnd, BitOr, BitXor, Shl, Shr,
		Eq, Ne, Lt, Le, Gt, Ge, Land, Lor, Lxor, Implies, Iff}
)

func (g treeGen) pick(n int) int { return g.r.IntN(n) }

func (g treeGen) expr(depth int) Expr {
	if depth <= 0 || g.pick(4) == 0 {
		return g.leaf()
	}
	switch g.pick(8) {
	case 0:
		return &Unary{Op: []Op{Neg, Plus, Not}[g.pick(3)], X: g.expr(depth - 1)}
	case 1:
		return &Conditional{Cond: g.expr(depth - 1), Then: g.expr(depth - 1), Else: g.expr(depth - 1)}
	case 2:
		return &FuncCall{Fn: Func(1 + g.pick(int(Sign))), Arg: g.expr(depth - 1)}
	case 3:
		return g.atom(depth - 1)
	}
	return &Binary{Op: genBinOps[g.pick(len(genBinOps))], X: g.expr(depth - 1), Y: g.expr(depth - 1)}
}

func (g treeGen) leaf() Expr {
	switch g.pick(7) {
	case 0:
		return &IntLit{Value: int64(g.pick(1000))}
	case 1:
		return &FloatLit{Value: genFloats[g.pick(len(genFloats))]}
	case 2:
		return &BoolLit{Value: g.pick(2) == 0}
	case 3:
		return &StringLit{Value: genStrings[g.pick(len(genStrings))]}
	case 4:
		return &Const{Name: []string{"pi", "E", "tau"}[g.pick(3)]}
	}
	return &Ident{Name: genNames[g.pick(len(genNames))]}
}

func (g treeGen) atom(depth int) Expr {
	c := &AtomCall{Name: []string{"f", "active", "where", "called"}[g.pick(4)]}
	for range g.pick(4) {
		switch g.pick(3) {
		case 0:
			c.Args = append(c.Args, Arg{Kind: ArgPositional, Value: g.argValue(depth)})
		case 1:
			c.Args = append(c.Args, Arg{Kind: ArgNamed, Name: genNames[g.pick(len(genNames))], Value: g.argValue(depth)})
		default:
			c.Args = append(c.Args, Arg{Kind: ArgWhere, Value: g.expr(depth)})
		}
	}
	return c
}

func (g treeGen) argValue(depth int) Expr {
	switch g.pick(5) {
	case 0:
		return &Wildcard{}
	case 1:
		r := &Range{}
		if g.pick(3) > 0 {
			r.Lo = g.expr(depth)
		}
		if g.pick(3) > 0 {
			r.Hi = g.expr(depth)
		}
		return r
	}
	return g.expr(depth)
}

func TestRandomTreesRoundTrip(t *testing.T) {
	g := treeGen{rand.New(rand.NewPCG(1, 2))}
	for i := range 20000 {
		e := g.expr(1 + i%6)
		text := Format(e)
		back, err := ParseExpr(text)
		if err != nil {
			t.Fatalf("tree %s printed as %q does not parse: %v", sexpr(e), text, err)
		}
		if !Equal(e, back) {
			t.Fatalf("tree %s printed as %q reads back as %s", sexpr(e), text, sexpr(back))
		}
	}
}
