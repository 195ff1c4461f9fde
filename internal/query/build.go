package query

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
)

// Var is the atom var("name"): the system variable name, whatever it is
// called. A bare identifier would not do for queries built from model
// names: "cycle" is the frame index, "pi" a constant, "true" a literal,
// and "x.y" or "réessai" do not scan as one name.
func Var(name string) expr.Expr {
	return &expr.AtomCall{Name: "var", Args: []expr.Arg{{Value: &expr.StringLit{Value: name}}}}
}

// VarRefs returns a copy of e in which every identifier is a variable
// reference var("…"). e is a condition over model variables only (a
// lowered guard, an invariant range, an RSC), so no identifier in it is
// the frame index.
func VarRefs(e expr.Expr) expr.Expr {
	switch n := e.(type) {
	case *expr.Ident:
		return Var(n.Name)
	case *expr.Unary:
		return &expr.Unary{Loc: n.Loc, Op: n.Op, X: VarRefs(n.X)}
	case *expr.Binary:
		return &expr.Binary{Loc: n.Loc, Op: n.Op, X: VarRefs(n.X), Y: VarRefs(n.Y)}
	case *expr.Conditional:
		return &expr.Conditional{Loc: n.Loc, Cond: VarRefs(n.Cond), Then: VarRefs(n.Then), Else: VarRefs(n.Else)}
	case *expr.FuncCall:
		return &expr.FuncCall{Loc: n.Loc, Fn: n.Fn, Arg: VarRefs(n.Arg)}
	case *expr.AtomCall:
		args := make([]expr.Arg, len(n.Args))
		for i, a := range n.Args {
			args[i] = a
			if a.Kind == expr.ArgWhere {
				args[i].Value = VarRefs(a.Value)
			}
		}
		return &expr.AtomCall{Loc: n.Loc, Name: n.Name, Args: args}
	}
	return e
}

// Build turns a query assembled by code into one read from text: it
// prints q canonically and parses the text back, so the result carries
// source text and spans for diagnostics. It fails when the text is not a
// fixed point of print → parse → print. (Trees built by code need not be
// Equal to what they read back as: a negative literal reads back as a
// sign applied to a number.)
func Build(file string, q *Query) (*Query, error) {
	text := Format(q)
	out, err := Parse(file, text)
	if err != nil {
		return nil, err
	}
	if Format(out) != text {
		return nil, fmt.Errorf("%s: the query does not read back as built: %q", file, text)
	}
	return out, nil
}
