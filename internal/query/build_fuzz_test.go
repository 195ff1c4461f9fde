package query

import (
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
)

// FuzzBuild builds the query `bmc --bound` writes for an invariant over a
// variable of any name: whatever the name, Build either fails cleanly or
// returns a query whose only bare identifier is the frame index and whose
// var() atoms name exactly the fuzzed variable.
func FuzzBuild(f *testing.F) {
	for _, name := range awkwardNames {
		f.Add(name, int64(3), 2)
	}
	f.Add("x", int64(-9007199254740991), 0)
	f.Fuzz(func(t *testing.T, name string, limit int64, bound int) {
		if bound < 0 || bound > 1000 {
			return
		}
		body := &expr.Binary{Op: expr.Le, X: Var(name), Y: &expr.IntLit{Value: limit}}
		q, err := Build("<fuzz>", &Query{Check: Check{Kind: Invariant, Bound: bound, Body: body}})
		if err != nil {
			return // refused: a name no text can carry is an error, never a changed meaning
		}
		expr.Inspect(q.Check.Body, func(n expr.Expr) bool {
			switch n := n.(type) {
			case *expr.AtomCall:
				if n.Name != "var" || len(n.Args) != 1 {
					t.Fatalf("%q: unexpected atom %s in %s", name, n.Name, Format(q))
				}
				if s, ok := n.Args[0].Value.(*expr.StringLit); !ok || s.Value != name {
					t.Fatalf("%q: var() reads back as %s", name, expr.Format(n))
				}
				return false
			case *expr.Ident, *expr.Const:
				t.Fatalf("%q: a bare name or constant in %s", name, Format(q))
			}
			return true
		})
		if q.Check.Bound != bound {
			t.Fatalf("bound %d read back as %d", bound, q.Check.Bound)
		}
	})
}
