package expr

import (
	"fmt"
	"strings"
)

// sexpr renders e fully parenthesised, as a structural view for tests.
func sexpr(e Expr) string {
	switch n := e.(type) {
	case nil:
		return "nil"
	case *Unary:
		return fmt.Sprintf("(%s %s)", n.Op, sexpr(n.X))
	case *Binary:
		return fmt.Sprintf("(%s %s %s)", n.Op, sexpr(n.X), sexpr(n.Y))
	case *Conditional:
		return fmt.Sprintf("(?: %s %s %s)", sexpr(n.Cond), sexpr(n.Then), sexpr(n.Else))
	case *FuncCall:
		return fmt.Sprintf("(%s %s)", n.Fn, sexpr(n.Arg))
	case *AtomCall:
		var parts []string
		for _, a := range n.Args {
			switch a.Kind {
			case ArgNamed:
				parts = append(parts, a.Name+"="+sexpr(a.Value))
			case ArgWhere:
				parts = append(parts, "where:"+sexpr(a.Value))
			default:
				parts = append(parts, sexpr(a.Value))
			}
		}
		return fmt.Sprintf("%s[%s]", n.Name, strings.Join(parts, " "))
	case *Range:
		return fmt.Sprintf("(.. %s %s)", sexpr(n.Lo), sexpr(n.Hi))
	}
	return leafText(e)
}
