package prove

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/lineend"
	"github.com/stateproof/stateproof/internal/sts"
)

// ParseRSC reads an .rsc file: statements `rsc "STATE": EXPR;` giving a
// reachable state constraint per node in the expression language, with
// `//` line comments. Errors carry file:line:column.
func ParseRSC(file, src string, g *Graph) ([]Property, error) {
	var out []Property
	off := 0
	for {
		off = skipSpace(src, off)
		if off >= len(src) {
			return out, nil
		}
		p, next, err := rscStatement(file, src, off, g)
		if err != nil {
			return nil, err
		}
		p.ID = fmt.Sprintf("rsc-%d", len(out)+1)
		out = append(out, p)
		off = next
	}
}

func rscStatement(file, src string, off int, g *Graph) (Property, int, error) {
	fail := func(at int, format string, args ...any) (Property, int, error) {
		l, c := lineCol(src, at)
		return Property{}, 0, fmt.Errorf("%s:%d:%d: %s", file, l, c, fmt.Sprintf(format, args...))
	}
	start := off
	if !strings.HasPrefix(src[off:], "rsc") || off+3 < len(src) && isIdent(src[off+3]) {
		return fail(off, `expected "rsc"`)
	}
	off = skipSpace(src, off+3)
	if off >= len(src) || src[off] != '"' {
		return fail(off, "expected a quoted state name after rsc")
	}
	end := strings.IndexByte(src[off+1:], '"')
	if end < 0 {
		return fail(off, "unterminated state name")
	}
	name, nameAt := src[off+1:off+1+end], off
	node := g.NodeIndex(name)
	if node < 0 && g.Sys != nil && g.Sys.LocationByName(name) != nil {
		return fail(nameAt, "unknown state %q: a run passes through it within a step (a composite or pseudo state) and never rests there; name one of %s", name, strings.Join(g.nodeNames(), ", "))
	}
	if node < 0 {
		return fail(nameAt, "unknown state %q", name)
	}
	off = skipSpace(src, off+end+2)
	if off >= len(src) || src[off] != ':' {
		return fail(off, `expected ":" after the state name`)
	}
	e, next, err := expr.ParseExprAt(src, off+1)
	if err != nil {
		return Property{}, 0, fmt.Errorf("%s:%w", file, err)
	}
	e = varAtomsToIdents(e)
	if err := checkRSC(e, g, node); err != nil {
		return Property{}, 0, fmt.Errorf("%s:%w", file, err)
	}
	next = skipSpace(src, next)
	if next >= len(src) || src[next] != ';' {
		return fail(next, `expected ";" after the constraint`)
	}
	l, c := lineCol(src, start)
	return Property{Node: node, Formula: e, Source: fmt.Sprintf("%s:%d:%d", file, l, c)}, next + 1, nil
}

// checkRSC type-checks a constraint against the node's variables: it must
// be Boolean and mention only them.
func checkRSC(e expr.Expr, g *Graph, node int) error {
	t := &expr.Table{Vars: map[string]expr.Type{}}
	n := &g.Nodes[node]
	for i, k := range n.Vars {
		ty := expr.Int
		switch g.Vars[k].Sort {
		case sts.Bool:
			ty = expr.Bool
		case sts.Real:
			ty = expr.Real
		}
		t.Vars[n.Names[i]] = ty
	}
	ty, err := expr.Check(e, t)
	if err != nil {
		return err
	}
	if ty != expr.Bool {
		return fmt.Errorf("%s: the constraint is %s, not bool", e.Span(), ty)
	}
	return nil
}

func isIdent(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// skipSpace skips white space and // comments.
func skipSpace(src string, off int) int {
	for off < len(src) {
		switch {
		case src[off] == ' ' || src[off] == '\t' || src[off] == '\n' || src[off] == '\r':
			off++
		case strings.HasPrefix(src[off:], "//"):
			off = lineend.LineEnd(src, off) // a lone "\r" ends it too (docs/rsc.md)
		default:
			return off
		}
	}
	return off
}

// lineCol converts a byte offset to a 1-based line and column.
func lineCol(src string, off int) (int, int) {
	off = min(off, len(src))
	line := 1 + lineend.Count(src[:off])
	col := 1 + off - lineend.LineStart(src, off)
	return line, col
}

// varAtomsToIdents reads var("name") as the variable name: expr.Format
// writes a variable that way when its name is not a plain identifier (a
// keyword, a constant, "x.y"), so a printed RSC reads back as it was.
func varAtomsToIdents(e expr.Expr) expr.Expr {
	switch n := e.(type) {
	case *expr.AtomCall:
		if n.Name == "var" && len(n.Args) == 1 && n.Args[0].Kind == expr.ArgPositional {
			if lit, ok := n.Args[0].Value.(*expr.StringLit); ok {
				return &expr.Ident{Loc: n.Loc, Name: lit.Value}
			}
		}
	case *expr.Unary:
		n.X = varAtomsToIdents(n.X)
	case *expr.Binary:
		n.X, n.Y = varAtomsToIdents(n.X), varAtomsToIdents(n.Y)
	case *expr.Conditional:
		n.Cond, n.Then, n.Else = varAtomsToIdents(n.Cond), varAtomsToIdents(n.Then), varAtomsToIdents(n.Else)
	case *expr.FuncCall:
		n.Arg = varAtomsToIdents(n.Arg)
	}
	return e
}
