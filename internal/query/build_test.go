package query

import (
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
)

// awkwardNames are variable names that would change meaning or not scan
// if a query were written with them bare.
var awkwardNames = []string{"cycle", "pi", "E", "tau", "true", "FALSE", "and", "not", "sqrt",
	"var", "active", "at", "check", "current", "where", "réessai", "x.y", "9x", "a b", "", `q"uote\`, "tab\t", "x"}

func TestBuildVariableNamesRoundTrip(t *testing.T) {
	for _, name := range awkwardNames {
		guard := &expr.Binary{Op: expr.Ge, X: &expr.Ident{Name: name}, Y: &expr.IntLit{Value: -1}}
		body := &expr.Binary{Op: expr.Implies, X: &expr.Binary{Op: expr.Eq, X: &expr.Ident{Name: "cycle"}, Y: &expr.IntLit{Value: 0}},
			Y: &expr.Binary{Op: expr.Land, X: VarRefs(guard), Y: &expr.Binary{Op: expr.Le, X: Var(name), Y: &expr.IntLit{Value: 3}}}}
		q, err := Build("<test>", &Query{Check: Check{Kind: Invariant, Bound: 2, Body: body}})
		if err != nil {
			t.Errorf("%q: %v", name, err)
			continue
		}
		var vars []string
		cycles := 0
		expr.Inspect(q.Check.Body, func(n expr.Expr) bool {
			switch n := n.(type) {
			case *expr.AtomCall:
				if n.Name == "var" {
					vars = append(vars, n.Args[0].Value.(*expr.StringLit).Value)
				}
				return false
			case *expr.Ident:
				if n.Name != "cycle" {
					t.Errorf("%q: a bare identifier %q in %s", name, n.Name, Format(q))
				}
				cycles++
			case *expr.Const:
				t.Errorf("%q: a constant in %s", name, Format(q))
			}
			return true
		})
		if len(vars) != 2 || vars[0] != name || vars[1] != name || cycles != 1 {
			t.Errorf("%q: read back variables %q and %d frame indexes from %s", name, vars, cycles, Format(q))
		}
	}
}

// expr.Format writes an identifier that is not a plain name as var("…"),
// so a tree built by code never prints as a different expression.
func TestFormatIdentifierThatIsNotPlain(t *testing.T) {
	for _, name := range awkwardNames {
		got := expr.Format(&expr.Ident{Name: name})
		want := expr.Format(Var(name))
		if expr.IsPlainName(name) {
			want = name
		}
		if got != want {
			t.Errorf("Format(Ident %q) = %s, want %s", name, got, want)
		}
	}
}
