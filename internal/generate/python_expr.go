package generate

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// block writes the statements of an operation block at an indentation
// depth; a failing statement raises the runtime's error.
func (g *pyGen) block(ops []model.Stmt, depth int) (string, error) {
	var b strings.Builder
	ind := strings.Repeat("    ", depth)
	for _, op := range ops {
		switch op := op.(type) {
		case *model.Assign:
			x, err := g.expr(op.Value, op.Pos)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%s# %s = %s (%s)\n", ind, op.Name, oneLine(expr.Format(op.Value)), where(op.Pos))
			val := fmt.Sprintf("_assign(%s, %s, lambda: %s)", pyPos(op.Pos), strconv.Quote(op.Name), x)
			if i, ok := g.varIdx[op.Name]; ok && !op.Temp {
				fmt.Fprintf(&b, "%se.set(%d, %s, %s)\n", ind, i, val, pyPos(op.Pos))
			} else {
				fmt.Fprintf(&b, "%se.set_temp(%s, %s)\n", ind, strconv.Quote(op.Name), val)
			}
		case *model.If:
			fmt.Fprintf(&b, "%s# if (%s)\n", ind, where(op.Pos))
			for i, br := range op.Branches {
				c, err := g.expr(br.Cond, op.Pos)
				if err != nil {
					return "", err
				}
				body, err := g.block(br.Body, depth+1)
				if err != nil {
					return "", err
				}
				kw := "if"
				if i > 0 {
					kw = "elif"
				}
				fmt.Fprintf(&b, "%s%s _test(%s, lambda: %s):\n%s", ind, kw, pyPos(op.Pos), c, body)
			}
			if len(op.Else) > 0 {
				body, err := g.block(op.Else, depth+1)
				if err != nil {
					return "", err
				}
				fmt.Fprintf(&b, "%selse:\n%s", ind, body)
			}
		}
	}
	if b.Len() == 0 {
		b.WriteString(ind + "pass\n")
	}
	return b.String(), nil
}

var pyOps = map[expr.Op]string{
	expr.Add: "_ADD", expr.Sub: "_SUB", expr.Mul: "_MUL", expr.Div: "_DIV", expr.Mod: "_MOD", expr.Pow: "_POW",
	expr.Shl: "_SHL", expr.Shr: "_SHR", expr.BitAnd: "_AND", expr.BitOr: "_OR", expr.BitXor: "_XOR",
	expr.Eq: "_EQ", expr.Ne: "_NE", expr.Lt: "_LT", expr.Le: "_LE", expr.Gt: "_GT", expr.Ge: "_GE",
	expr.Lxor: "_LXOR", expr.Iff: "_IFF",
}

var pyFuncs = map[expr.Func]string{
	expr.Abs: "_fn_abs", expr.Sign: "_fn_sign", expr.Ceil: "_fn_ceil", expr.Floor: "_fn_floor", expr.Round: "_fn_round_even",
	expr.Trunc: "_fn_trunc", expr.Sqrt: "_fn_sqrt",
}

// expr is the Python expression computing e. at locates the statement or
// transition, for refusals without a position of their own.
func (g *pyGen) expr(e expr.Expr, at model.Pos) (string, error) {
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
			return pyInt(n.Big.String()), nil
		}
		return "(" + strconv.FormatInt(n.Value, 10) + ")", nil
	case *expr.FloatLit:
		return pyFloat(n.Value), nil
	case *expr.BoolLit:
		return pyBool(n.Value), nil
	case *expr.Const:
		if f, ok := constants[n.Name]; ok {
			return pyFloat(f), nil
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
			return "_neg(" + x + ")", nil
		case expr.Not:
			return "_not(" + x + ")", nil
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
		return fmt.Sprintf("_cond(%s, lambda: %s, lambda: %s, %s, lambda: %s, lambda: %s, %s)",
			c, a, g.kind(n.Then), strconv.Quote(describe(n.Then)), b, g.kind(n.Else), strconv.Quote(describe(n.Else))), nil
	case *expr.FuncCall:
		fn, ok := pyFuncs[n.Fn]
		if !ok {
			return "", &Unsupported{Pos: here(), Feature: "float-function", Message: fmt.Sprintf("%s: Python's math does not compute this function correctly rounded, as the runtime does", n.Fn)}
		}
		x, err := g.expr(n.Arg, at)
		if err != nil {
			return "", err
		}
		return fn + "(" + x + ")", nil
	}
	return "", &Unsupported{Pos: here(), Feature: "expression", Message: fmt.Sprintf("%s cannot be generated", describe(e))}
}

func (g *pyGen) binary(n *expr.Binary, at model.Pos, here func() model.Pos) (string, error) {
	if n.Op == expr.Pow && !g.integral(n.Y) {
		return "", &Unsupported{Pos: here(), Feature: "float-power", Message: fmt.Sprintf("%s: an exponent that may be a fraction needs exp and log, which Python's math does not compute as the runtime does", describe(n))}
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
		return "_land(" + x + ", lambda: " + y + ")", nil
	case expr.Lor:
		return "_lor(" + x + ", lambda: " + y + ")", nil
	case expr.Implies:
		return "_implies(" + x + ", lambda: " + y + ")", nil
	}
	op, ok := pyOps[n.Op]
	if !ok {
		return "", &Unsupported{Pos: at, Feature: "expression", Message: fmt.Sprintf("operator %s cannot be generated", n.Op)}
	}
	return fmt.Sprintf("_bin(%s, %s, %s, %s)", op, x, y, strconv.Quote(describe(n))), nil
}

// pyInt is the Python literal of a decimal integer: hexadecimal past
// 4000 digits, since Python 3.11 refuses longer decimal literals.
func pyInt(dec string) string {
	if len(dec) <= 4000 {
		return "(" + dec + ")"
	}
	x, _ := new(big.Int).SetString(dec, 10)
	if x.Sign() < 0 {
		return "(-0x" + new(big.Int).Neg(x).Text(16) + ")"
	}
	return "(0x" + x.Text(16) + ")"
}

// integral reports whether e's value is, whatever the variables hold, an
// int, an integral float or ±0.5: the exponents for which the runtime's
// power (Go's math.Pow) is exact squaring, reproduced bit for bit.
// Variables are ints by declaration (a block may hold a float in one
// until its writeback, which then fails unless the float is integral;
// the runtime's power is then computed on an integral exponent too).
func (g *pyGen) integral(e expr.Expr) bool {
	switch n := e.(type) {
	case *expr.IntLit:
		return true
	case *expr.FloatLit:
		return n.Value == math.Trunc(n.Value) || math.Abs(n.Value) == 0.5
	case *expr.Ident:
		i, ok := g.varIdx[n.Name]
		return ok && g.m.Vars[i].Type == model.Int && !g.assignsFloat(n.Name)
	case *expr.Unary:
		return n.Op != expr.Not && g.integral(n.X)
	case *expr.Binary:
		switch n.Op {
		case expr.Add, expr.Sub, expr.Mul:
			return g.integral(n.X) && g.integral(n.Y) && !g.half(n.X) && !g.half(n.Y)
		case expr.Shl, expr.Shr, expr.BitAnd, expr.BitOr, expr.BitXor:
			return true
		}
	case *expr.Conditional:
		return g.integral(n.Then) && g.integral(n.Else)
	case *expr.FuncCall:
		return n.Fn == expr.Ceil || n.Fn == expr.Floor || n.Fn == expr.Round || n.Fn == expr.Trunc || n.Fn == expr.Sign
	}
	return false
}

// assignsFloat reports whether the model assigns the variable a value
// integral does not vouch for, computed once for all variables as a
// fixed point (an assignment from another such variable counts).
func (g *pyGen) assignsFloat(name string) bool {
	if g.floatAssigned == nil {
		g.floatAssigned = map[string]bool{}
		var assigns []*model.Assign
		var walk func(ops []model.Stmt)
		walk = func(ops []model.Stmt) {
			for _, op := range ops {
				switch op := op.(type) {
				case *model.Assign:
					assigns = append(assigns, op)
				case *model.If:
					for _, br := range op.Branches {
						walk(br.Body)
					}
					walk(op.Else)
				}
			}
		}
		for _, s := range g.states {
			for _, list := range [][]*model.Action{s.Enter, s.During, s.Exit, s.DuringBefore, s.DuringAfter, s.AspectBefore, s.AspectAfter} {
				for _, a := range list {
					walk(a.Resolved().Ops)
				}
			}
			for _, t := range s.Transitions {
				walk(t.Effect)
			}
		}
		for changed := true; changed; {
			changed = false
			for _, a := range assigns {
				if !a.Temp && !g.floatAssigned[a.Name] && !g.integral(a.Value) {
					g.floatAssigned[a.Name] = true
					changed = true
				}
			}
		}
	}
	return g.floatAssigned[name]
}

// half reports whether e is the literal ±0.5, integral only on its own.
func (g *pyGen) half(e expr.Expr) bool {
	if u, ok := e.(*expr.Unary); ok {
		return g.half(u.X)
	}
	f, ok := e.(*expr.FloatLit)
	return ok && math.Abs(f.Value) == 0.5
}

// kind is the Python expression of e's type, as the runtime's checker
// gives it from the current values; None for a type error.
func (g *pyGen) kind(e expr.Expr) string {
	switch n := e.(type) {
	case *expr.IntLit:
		return "_INT"
	case *expr.FloatLit, *expr.Const:
		return "_FLOAT"
	case *expr.BoolLit:
		return "_BOOL"
	case *expr.Ident:
		if i, ok := g.varIdx[n.Name]; ok {
			return fmt.Sprintf("_kind(e.vars[%d])", i)
		}
		return fmt.Sprintf("e.temp_kind(%s)", strconv.Quote(n.Name))
	case *expr.Unary:
		if n.Op == expr.Not {
			return "_t_not(" + g.kind(n.X) + ")"
		}
		return "_t_num(" + g.kind(n.X) + ")"
	case *expr.Binary:
		x, y := g.kind(n.X), g.kind(n.Y)
		switch {
		case n.Op == expr.Eq || n.Op == expr.Ne:
			return "_t_eq(" + x + ", " + y + ")"
		case n.Op.IsLogical():
			return "_t_both(" + x + ", " + y + ", _BOOL, _BOOL)"
		case n.Op.IsComparison():
			return "_t_both(" + x + ", " + y + ", None, _BOOL)"
		case n.Op == expr.Div:
			return "_t_both(" + x + ", " + y + ", None, _FLOAT)"
		case n.Op == expr.BitAnd || n.Op == expr.BitOr || n.Op == expr.BitXor || n.Op == expr.Shl || n.Op == expr.Shr:
			return "_t_both(" + x + ", " + y + ", _INT, _INT)"
		}
		return "_t_join(" + x + ", " + y + ")"
	case *expr.Conditional:
		return "_t_cond(" + g.kind(n.Cond) + ", " + g.kind(n.Then) + ", " + g.kind(n.Else) + ")"
	case *expr.FuncCall:
		keep := n.Fn == expr.Abs
		toInt := n.Fn == expr.Ceil || n.Fn == expr.Floor || n.Fn == expr.Round || n.Fn == expr.Trunc || n.Fn == expr.Sign
		return fmt.Sprintf("_t_func(%s, %s, %s)", g.kind(n.Arg), pyBool(keep), pyBool(toInt))
	}
	return "None"
}
