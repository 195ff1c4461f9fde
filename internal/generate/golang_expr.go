package generate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

func mathBits(f float64) uint64 { return math.Float64bits(f) }

// block writes the statements of an operation block. Each statement
// first records where it is (e.at) and what it assigns (e.target, "" for
// an if's conditions), so that the block's one deferred recover, in the
// engine, turns a failing expression into the runtime's error for that
// statement: no closure or defer per statement.
func (g *goGen) block(ops []model.Stmt, depth int) (string, error) {
	var b strings.Builder
	ind := strings.Repeat("\t", depth)
	for _, op := range ops {
		switch op := op.(type) {
		case *model.Assign:
			x, err := g.expr(op.Value, op.Pos)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%s// %s = %s (%s)\n", ind, op.Name, oneLine(expr.Format(op.Value)), where(op.Pos))
			fmt.Fprintf(&b, "%se.at, e.target = %s, %s\n", ind, goPos(op.Pos), strconv.Quote(op.Name))
			if i, ok := g.varIdx[op.Name]; ok && !op.Temp {
				fmt.Fprintf(&b, "%se.set(%d, %s)\n", ind, i, x)
			} else {
				fmt.Fprintf(&b, "%se.setTemp(%s, %s)\n", ind, strconv.Quote(op.Name), x)
			}
		case *model.If:
			// The conditions are evaluated before any branch runs: one
			// record of the position serves them all.
			fmt.Fprintf(&b, "%s// if (%s)\n%se.at, e.target = %s, \"\"\n%s", ind, where(op.Pos), ind, goPos(op.Pos), ind)
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
				fmt.Fprintf(&b, "if %s.Bool() {\n%s%s}", c, body, ind)
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

// describe is the source text an undefined operation names, as the
// runtime shortens it.
func describe(e expr.Expr) string {
	s := expr.Format(e)
	if len(s) > 40 {
		s = strings.TrimSpace(s[:37]) + "..."
	}
	return s
}

var goOps = map[expr.Op]string{
	expr.Add: "opAdd", expr.Sub: "opSub", expr.Mul: "opMul", expr.Div: "opDiv", expr.Mod: "opMod", expr.Pow: "opPow",
	expr.Shl: "opShl", expr.Shr: "opShr", expr.BitAnd: "opAnd", expr.BitOr: "opOr", expr.BitXor: "opXor",
	expr.Eq: "opEq", expr.Ne: "opNe", expr.Lt: "opLt", expr.Le: "opLe", expr.Gt: "opGt", expr.Ge: "opGe",
	expr.Lxor: "opLxor", expr.Iff: "opIff",
}

var goFuncs = map[expr.Func]string{
	expr.Abs: "fnAbs", expr.Sign: "fnSign", expr.Ceil: "fnCeil", expr.Floor: "fnFloor", expr.Round: "fnRoundEven",
	expr.Trunc: "fnTrunc", expr.Sqrt: "fnSqrt",
}

// constants are the values of FCSTM's named constants.
var constants = map[string]float64{"pi": math.Pi, "E": math.E, "tau": 2 * math.Pi}

// expr is the Go expression (of type Value) computing e. at locates the
// statement or transition, for refusals without a position of their own.
func (g *goGen) expr(e expr.Expr, at model.Pos) (string, error) {
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
			return fmt.Sprintf("bigLit(%q)", n.Big.String()), nil
		}
		return fmt.Sprintf("IntValue(%d)", n.Value), nil
	case *expr.FloatLit:
		return floatLit(n.Value), nil
	case *expr.BoolLit:
		return fmt.Sprintf("BoolValue(%t)", n.Value), nil
	case *expr.Const:
		if f, ok := constants[n.Name]; ok {
			return floatLit(f), nil
		}
	case *expr.Ident:
		if i, ok := g.varIdx[n.Name]; ok {
			return fmt.Sprintf("e.vars[%d]", i), nil
		}
		return fmt.Sprintf("e.temp(%s)", strconv.Quote(n.Name)), nil
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
		return g.binary(n, at)
	case *expr.Conditional:
		return g.conditional(n, at)
	case *expr.FuncCall:
		fn, ok := goFuncs[n.Fn]
		if !ok {
			return "", &Unsupported{Pos: here(), Feature: "float-function", Message: fmt.Sprintf("%s: the Go standard library does not compute this function correctly rounded, as the runtime does", n.Fn)}
		}
		x, err := g.expr(n.Arg, at)
		if err != nil {
			return "", err
		}
		return fn + "(" + x + ")", nil
	}
	return "", &Unsupported{Pos: here(), Feature: "expression", Message: fmt.Sprintf("%s cannot be generated", describe(e))}
}

func (g *goGen) binary(n *expr.Binary, at model.Pos) (string, error) {
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
		return "land(" + x + ", func() Value { return " + y + " })", nil
	case expr.Lor:
		return "lor(" + x + ", func() Value { return " + y + " })", nil
	case expr.Implies:
		return "implies(" + x + ", func() Value { return " + y + " })", nil
	}
	op, ok := goOps[n.Op]
	if !ok {
		return "", &Unsupported{Pos: at, Feature: "expression", Message: fmt.Sprintf("operator %s cannot be generated", n.Op)}
	}
	return fmt.Sprintf("bin(%s, %s, %s, %s)", op, x, y, strconv.Quote(describe(n))), nil
}

// conditional is c ? a : b. The runtime makes an int result a float
// when the other branch's type is float, typed by the variables' current
// values (a temporary's, or a variable assigned earlier in the block, may
// differ from a declaration): each branch's type is computed at run time.
func (g *goGen) conditional(n *expr.Conditional, at model.Pos) (string, error) {
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
	return fmt.Sprintf("cond(%s, func() Value { return %s }, func() Kind { return %s }, %s, func() Value { return %s }, func() Kind { return %s }, %s)",
		c, a, g.kind(n.Then), strconv.Quote(describe(n.Then)), b, g.kind(n.Else), strconv.Quote(describe(n.Else))), nil
}

// kind is the Go expression (of type Kind) of e's type, as the runtime's
// checker gives it from the current values; Invalid for a type error.
func (g *goGen) kind(e expr.Expr) string {
	switch n := e.(type) {
	case *expr.IntLit:
		return "Int"
	case *expr.FloatLit, *expr.Const:
		return "Float"
	case *expr.BoolLit:
		return "Bool"
	case *expr.Ident:
		if i, ok := g.varIdx[n.Name]; ok {
			return fmt.Sprintf("e.vars[%d].kind", i)
		}
		return fmt.Sprintf("e.tempKind(%s)", strconv.Quote(n.Name))
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
			return "tBoth(" + x + ", " + y + ", Bool, Bool)"
		case n.Op.IsComparison():
			return "tBoth(" + x + ", " + y + ", 0, Bool)"
		case n.Op == expr.Div:
			return "tBoth(" + x + ", " + y + ", 0, Float)"
		case n.Op == expr.BitAnd || n.Op == expr.BitOr || n.Op == expr.BitXor || n.Op == expr.Shl || n.Op == expr.Shr:
			return "tBoth(" + x + ", " + y + ", Int, Int)"
		}
		return "tJoin(" + x + ", " + y + ")"
	case *expr.Conditional:
		return "tCond(" + g.kind(n.Cond) + ", " + g.kind(n.Then) + ", " + g.kind(n.Else) + ")"
	case *expr.FuncCall:
		keep := n.Fn == expr.Abs
		toInt := n.Fn == expr.Ceil || n.Fn == expr.Floor || n.Fn == expr.Round || n.Fn == expr.Trunc || n.Fn == expr.Sign
		return fmt.Sprintf("tFunc(%s, %t, %t)", g.kind(n.Arg), keep, toInt)
	}
	return "Invalid"
}
