package generate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// block writes the statements of an operation block at an indentation
// depth; a failing statement throws the runtime's error.
func (g *tsGen) block(ops []model.Stmt, depth int) (string, error) {
	var b strings.Builder
	ind := strings.Repeat("  ", depth)
	for _, op := range ops {
		switch op := op.(type) {
		case *model.Assign:
			x, err := g.expr(op.Value, op.Pos)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%s// %s = %s (%s)\n", ind, op.Name, tsDoc(oneLine(expr.Format(op.Value))), where(op.Pos))
			val := fmt.Sprintf("assign(%s, %s, () => %s)", tsPos(op.Pos), tsQuote(op.Name), x)
			if i, ok := g.varIdx[op.Name]; ok && !op.Temp {
				fmt.Fprintf(&b, "%se.set(%d, %s, %s);\n", ind, i, val, tsPos(op.Pos))
			} else {
				fmt.Fprintf(&b, "%se.setTemp(%s, %s);\n", ind, tsQuote(op.Name), val)
			}
		case *model.If:
			fmt.Fprintf(&b, "%s// if (%s)\n%s", ind, where(op.Pos), ind)
			for i, br := range op.Branches {
				c, err := g.expr(br.Cond, op.Pos)
				if err != nil {
					return "", err
				}
				body, err := g.block(br.Body, depth+1)
				if err != nil {
					return "", err
				}
				if i > 0 {
					b.WriteString(" else ")
				}
				fmt.Fprintf(&b, "if (test(%s, () => %s)) {\n%s%s}", tsPos(op.Pos), c, body, ind)
			}
			if len(op.Else) > 0 {
				body, err := g.block(op.Else, depth+1)
				if err != nil {
					return "", err
				}
				fmt.Fprintf(&b, " else {\n%s%s}", body, ind)
			}
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

var tsOps = map[expr.Op]string{
	expr.Add: "ADD", expr.Sub: "SUB", expr.Mul: "MUL", expr.Div: "DIV", expr.Mod: "MOD", expr.Pow: "POW",
	expr.Shl: "SHL", expr.Shr: "SHR", expr.BitAnd: "AND", expr.BitOr: "OR", expr.BitXor: "XOR",
	expr.Eq: "EQ", expr.Ne: "NE", expr.Lt: "LT", expr.Le: "LE", expr.Gt: "GT", expr.Ge: "GE",
	expr.Lxor: "LXOR", expr.Iff: "IFF",
}

var tsFuncs = map[expr.Func]string{
	expr.Abs: "fnAbs", expr.Sign: "fnSign", expr.Ceil: "fnCeil", expr.Floor: "fnFloor", expr.Round: "fnRoundEven",
	expr.Trunc: "fnTrunc", expr.Sqrt: "fnSqrt",
}

// expr is the TypeScript expression computing e. at locates the
// statement or transition, for refusals without a position of their own.
func (g *tsGen) expr(e expr.Expr, at model.Pos) (string, error) {
	here := func() model.Pos {
		p := e.Span().Start
		if p.Line > 0 {
			return model.Pos{File: at.File, Line: p.Line, Col: p.Col}
		}
		return at
	}
	switch n := e.(type) {
	case *expr.IntLit:
		if n.Big != nil {
			return tsInt(n.Big.String()), nil
		}
		return tsInt(strconv.FormatInt(n.Value, 10)), nil
	case *expr.FloatLit:
		return tsFloat(n.Value), nil
	case *expr.BoolLit:
		return strconv.FormatBool(n.Value), nil
	case *expr.Const:
		if f, ok := constants[n.Name]; ok {
			return tsFloat(f), nil
		}
	case *expr.Ident:
		if i, ok := g.varIdx[n.Name]; ok {
			return fmt.Sprintf("e.vars[%d]", i), nil
		}
		return fmt.Sprintf("e.temp(%s)", tsQuote(n.Name)), nil
	case *expr.Unary:
		x, err := g.expr(n.X, at)
		if err != nil {
			return "", err
		}
		switch n.Op {
		case expr.Neg:
			return "neg(" + x + ")", nil
		case expr.Not:
			return "not(" + x + ")", nil
		case expr.Plus:
			return x, nil
		}
	case *expr.Binary:
		return g.binary(n, at, here)
	case *expr.Conditional:
		c, err := g.expr(n.Cond, at)
		if err != nil {
			return "", err
		}
		a, err := g.expr(n.Then, at)
		if err != nil {
			return "", err
		}
		b, err := g.expr(n.Else, at)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("cond(%s, () => %s, () => %s, %s, () => %s, () => %s, %s)",
			c, a, g.kind(n.Then), tsQuote(describe(n.Then)), b, g.kind(n.Else), tsQuote(describe(n.Else))), nil
	case *expr.FuncCall:
		fn, ok := tsFuncs[n.Fn]
		if !ok {
			return "", &Unsupported{Pos: here(), Feature: "float-function", Message: fmt.Sprintf("%s: JavaScript's Math does not compute this function correctly rounded, as the runtime does", n.Fn)}
		}
		x, err := g.expr(n.Arg, at)
		if err != nil {
			return "", err
		}
		return fn + "(" + x + ")", nil
	}
	return "", &Unsupported{Pos: here(), Feature: "expression", Message: fmt.Sprintf("%s cannot be generated", describe(e))}
}

func (g *tsGen) binary(n *expr.Binary, at model.Pos, here func() model.Pos) (string, error) {
	if n.Op == expr.Pow && !g.integral(n.Y) {
		return "", &Unsupported{Pos: here(), Feature: "float-power", Message: fmt.Sprintf("%s: an exponent that may be a fraction needs exp and log, which JavaScript's Math does not compute as the runtime does", describe(n))}
	}
	x, err := g.expr(n.X, at)
	if err != nil {
		return "", err
	}
	y, err := g.expr(n.Y, at)
	if err != nil {
		return "", err
	}
	switch n.Op {
	case expr.Land:
		return "land(" + x + ", () => " + y + ")", nil
	case expr.Lor:
		return "lor(" + x + ", () => " + y + ")", nil
	case expr.Implies:
		return "implies(" + x + ", () => " + y + ")", nil
	}
	op, ok := tsOps[n.Op]
	if !ok {
		return "", &Unsupported{Pos: at, Feature: "expression", Message: fmt.Sprintf("operator %s cannot be generated", n.Op)}
	}
	return fmt.Sprintf("bin(%s, %s, %s, %s)", op, x, y, tsQuote(describe(n))), nil
}

// kind is the TypeScript expression of e's type, as the runtime's checker
// gives it from the current values; null for a type error.
func (g *tsGen) kind(e expr.Expr) string {
	switch n := e.(type) {
	case *expr.IntLit:
		return "INT"
	case *expr.FloatLit, *expr.Const:
		return "FLOAT"
	case *expr.BoolLit:
		return "BOOL"
	case *expr.Ident:
		if i, ok := g.varIdx[n.Name]; ok {
			return fmt.Sprintf("kind(e.vars[%d])", i)
		}
		return fmt.Sprintf("e.tempKind(%s)", tsQuote(n.Name))
	case *expr.Unary:
		if n.Op == expr.Not {
			return "tNot(" + g.kind(n.X) + ")"
		}
		return "tNum(" + g.kind(n.X) + ")"
	case *expr.Binary:
		x, y := g.kind(n.X), g.kind(n.Y)
		switch {
		case n.Op == expr.Eq || n.Op == expr.Ne:
			return "tEq(" + x + ", " + y + ")"
		case n.Op.IsLogical():
			return "tBoth(" + x + ", " + y + ", BOOL, BOOL)"
		case n.Op.IsComparison():
			return "tBoth(" + x + ", " + y + ", null, BOOL)"
		case n.Op == expr.Div:
			return "tBoth(" + x + ", " + y + ", null, FLOAT)"
		case n.Op == expr.BitAnd || n.Op == expr.BitOr || n.Op == expr.BitXor || n.Op == expr.Shl || n.Op == expr.Shr:
			return "tBoth(" + x + ", " + y + ", INT, INT)"
		}
		return "tJoin(" + x + ", " + y + ")"
	case *expr.Conditional:
		return "tCond(" + g.kind(n.Cond) + ", " + g.kind(n.Then) + ", " + g.kind(n.Else) + ")"
	case *expr.FuncCall:
		keep := n.Fn == expr.Abs
		toInt := n.Fn == expr.Ceil || n.Fn == expr.Floor || n.Fn == expr.Round || n.Fn == expr.Trunc || n.Fn == expr.Sign
		return fmt.Sprintf("tFunc(%s, %t, %t)", g.kind(n.Arg), keep, toInt)
	}
	return "null"
}
