package expr

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// A compiled program gives Eval's value and error on random trees, some
// identifiers read from slots and the others from the valuation.
func TestProgramMatchesEval(t *testing.T) {
	g := treeGen{rand.New(rand.NewPCG(7, 8))}
	vals := []Value{IntVal(3), RealVal(-0.5), BoolVal(true), IntVal(-9)}
	slots := []string{"x", "y", "where", "e"}
	env := Vars{"x": vals[0], "y": vals[1], "where": vals[2], "e": vals[3], "cycle": IntVal(1 << 62)}
	slot := func(name string) (int, bool) {
		i := slices.Index(slots, name)
		return i, i >= 0 && name != "e" // e: resolved by the valuation
	}
	for i := range 50000 {
		e := g.expr(1 + i%6)
		want, wantErr := Eval(e, env)
		got, gotErr := Compile(e, slot).Run(vals, env)
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: compiled %v %v, Eval %v %v", sexpr(e), got, gotErr, want, wantErr)
		}
	}
}
