package query

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
)

// The expression parser accepts any name(args) as an atom call and any
// word as an identifier. validate narrows that to the FBMCQ grammar
// (docs/queries.md): the seven atoms with their argument shapes, no query
// keyword as a bare variable, no string outside an atom argument. All of
// these are parse errors.
func (ps *parser) validate(e expr.Expr) {
	expr.Inspect(e, func(n expr.Expr) bool {
		switch n := n.(type) {
		case *expr.Ident:
			ps.checkIdent(n)
		case *expr.StringLit:
			ps.failAt(n.Loc, "a string is only allowed as an atom argument, found %s", expr.Format(n))
		case *expr.AtomCall:
			ps.checkAtom(n)
			return false
		}
		return true
	})
}

func (ps *parser) checkIdent(n *expr.Ident) {
	switch {
	case n.Name == "cycle":
	case n.Name == "current":
		ps.failAt(n.Loc, `"current" is only a frame selector (as in active("S", current))`)
	case keywords[n.Name]:
		ps.failAt(n.Loc, "%q is a query keyword, not a variable; write var(%q) for a variable of that name", n.Name, n.Name)
	}
}

// atomArity is the number of arguments of the simple atoms.
var atomArity = map[string][2]int{
	"var": {1, 1}, "active": {1, 2}, "terminated": {0, 1}, "event": {2, 2}, "case": {1, 2},
}

// atomFirst describes the string first argument of the simple atoms.
var atomFirst = map[string]string{
	"var": "a variable name", "active": "a state path", "event": "an event name", "case": "a case label",
}

func (ps *parser) checkAtom(a *expr.AtomCall) {
	if a.Name == "called" || a.Name == "call_count" {
		for _, arg := range a.Args {
			ps.callArg(a, arg)
		}
		return
	}
	ar, ok := atomArity[a.Name]
	if !ok {
		ps.failAt(a.Loc, "unknown function %q (the atoms are var, active, terminated, event, case, called and call_count)", a.Name)
	}
	for _, arg := range a.Args {
		if arg.Kind != expr.ArgPositional {
			ps.failAt(arg.Loc, "%s(...) takes positional arguments only", a.Name)
		}
	}
	if n := len(a.Args); n < ar[0] || n > ar[1] {
		ps.failAt(a.Loc, "%s(...) takes %s, found %d argument(s)", a.Name, arityText(a.Name, ar), n)
	}
	first := 0
	if what, ok := atomFirst[a.Name]; ok {
		if _, ok := a.Args[0].Value.(*expr.StringLit); !ok {
			ps.failAt(a.Args[0].Loc, "the first argument of %s(...) must be %s string, found %s", a.Name, what, short(a.Args[0].Value))
		}
		first = 1
	}
	if a.Name != "var" && len(a.Args) > first {
		ps.frameSel(a, a.Args[first])
	}
}

func arityText(name string, ar [2]int) string {
	switch name {
	case "var":
		return `one string argument`
	case "terminated":
		return "at most a frame selector"
	case "event":
		return "an event name and a frame selector"
	}
	return atomFirst[name] + " and an optional frame selector"
}

// frameSel checks a frame selector: "current" or an integer (binding
// rejects the integer form).
func (ps *parser) frameSel(a *expr.AtomCall, arg expr.Arg) {
	switch v := arg.Value.(type) {
	case *expr.Ident:
		if v.Name == "current" {
			return
		}
	case *expr.IntLit:
		return
	}
	ps.failAt(arg.Loc, "expected a frame selector (current or an integer) in %s(...), found %s", a.Name, short(arg.Value))
}

// callArg checks one argument of called(...) / call_count(...).
func (ps *parser) callArg(a *expr.AtomCall, arg expr.Arg) {
	v := arg.Value
	switch arg.Kind {
	case expr.ArgWhere:
		ps.validate(v)
	case expr.ArgPositional:
		if _, ok := v.(*expr.StringLit); ok || isStepSel(v) {
			return
		}
		ps.failAt(arg.Loc, "expected an action path string or a step selector (*, k, +k, -k, a..b) in %s(...), found %s", a.Name, short(v))
	case expr.ArgNamed:
		if arg.Name == "state" {
			if _, ok := v.(*expr.StringLit); !ok {
				ps.failAt(v.Span(), "state= takes a state path string, found %s", short(v))
			}
			return
		}
		if keywords[arg.Name] {
			ps.failAt(arg.Loc, "%q cannot name a call filter dimension", arg.Name)
		}
		switch v := v.(type) {
		case *expr.StringLit:
			return
		case *expr.Ident:
			if !keywords[v.Name] {
				return
			}
		}
		if isStepSel(v) {
			return
		}
		ps.failAt(v.Span(), "%s= takes a string, a name or a step selector, found %s", arg.Name, short(v))
	}
}

// isStepSel reports whether v is a step selector: *, a point, or a range
// of optional points.
func isStepSel(v expr.Expr) bool {
	switch v := v.(type) {
	case *expr.Wildcard:
		return true
	case *expr.Range:
		return (v.Lo == nil || isPoint(v.Lo)) && (v.Hi == nil || isPoint(v.Hi))
	}
	return isPoint(v)
}

// isPoint reports whether v is k, +k or -k with an integer literal k.
func isPoint(v expr.Expr) bool {
	if u, ok := v.(*expr.Unary); ok && (u.Op == expr.Plus || u.Op == expr.Neg) {
		v = u.X
	}
	_, ok := v.(*expr.IntLit)
	return ok
}

// short renders an expression for a message, cut to a readable length.
func short(e expr.Expr) string {
	s := expr.Format(e)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return fmt.Sprintf("%q", s)
}
