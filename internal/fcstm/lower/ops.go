package lower

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/smt"
)

// supportedFuncs are the math functions with an exact encoding.
var supportedFuncs = map[expr.Func]bool{
	expr.Abs: true, expr.Sign: true, expr.Floor: true, expr.Ceil: true,
	expr.Trunc: true, expr.Round: true, expr.Sqrt: true,
}

// maxExponent is the largest constant exponent with an exact encoding.
const maxExponent = smt.MaxExponent

// unsupported reports the first operator of e that has no exact encoding
// (docs/fcstm.md, known gaps): bitwise and shift operators, a modulo of a
// float, a power whose exponent is not a small non-negative integer
// constant, and the transcendental functions. types holds the static type
// of every node of e.
func unsupported(e expr.Expr, types map[expr.Expr]expr.Type, pos model.Pos) error {
	var err error
	expr.Inspect(e, func(n expr.Expr) bool {
		if err != nil {
			return false
		}
		what := ""
		switch n := n.(type) {
		case *expr.Binary:
			switch n.Op {
			case expr.BitAnd, expr.BitOr, expr.BitXor, expr.Shl, expr.Shr:
				what = fmt.Sprintf("the bitwise operator %s", n.Op)
			case expr.Mod:
				if types[n.X] == expr.Real || types[n.Y] == expr.Real {
					what = "% on a float"
				}
			case expr.Pow:
				if k, ok := n.Y.(*expr.IntLit); !ok || k.Value < 0 || k.Value > maxExponent {
					what = fmt.Sprintf("** with an exponent that is not an integer constant between 0 and %d", maxExponent)
				}
			}
		case *expr.FuncCall:
			if !supportedFuncs[n.Fn] {
				what = fmt.Sprintf("the function %s", n.Fn)
			}
		}
		if what != "" {
			at := pos
			if sp := n.Span(); sp.Start.IsValid() {
				at.Line, at.Col = sp.Start.Line, sp.Start.Col
			}
			err = &Error{Pos: at, Unsupported: true, Msg: fmt.Sprintf("%s in %s", what, expr.Format(n))}
		}
		return true
	})
	return err
}

// partial reports whether evaluating e can fail at run time (a division
// or modulo by zero, the square root of a negative number).
func partial(e expr.Expr) bool {
	found := false
	expr.Inspect(e, func(n expr.Expr) bool {
		switch n := n.(type) {
		case *expr.Binary:
			if n.Op == expr.Div || n.Op == expr.Mod {
				found = true
			}
		case *expr.FuncCall:
			if n.Fn == expr.Sqrt {
				found = true
			}
		}
		return !found
	})
	return found
}

// checkModel refuses, before any expansion, every expression of the model
// that has no exact encoding, so that an unsupported operator is reported
// even on a path the expansion never reaches.
func (l *lowering) checkModel() error {
	p := &path{}
	for _, v := range l.m.Vars {
		p.types = append(p.types, varType(v))
	}
	for _, n := range l.nodes {
		for _, t := range n.st.Transitions {
			if t.Guard != nil {
				if _, err := l.supported(p, t.Guard, t.Pos); err != nil {
					return err
				}
			}
			if err := l.checkStmts(p, t.Effect); err != nil {
				return err
			}
		}
		for _, list := range [][]*model.Action{n.st.Enter, n.st.During, n.st.Exit, n.st.DuringBefore, n.st.DuringAfter, n.st.AspectBefore, n.st.AspectAfter} {
			for _, a := range list {
				if a.Kind == model.Concrete {
					if err := l.checkStmts(p, a.Ops); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// checkStmts runs a block's static checks on a scratch path.
func (l *lowering) checkStmts(p *path, ops []model.Stmt) error {
	if len(ops) == 0 {
		return nil
	}
	q := p.clone()
	saved := l.cases
	defer func() { l.cases = saved }()
	return l.block(q, ops)
}

// fold replaces every constant power in e by its value, computed by the
// runtime's own evaluator (so that `3 ** (30 + 4)` or `2 ** -1` mean
// exactly what they mean at run time). A constant power the evaluator
// refuses (an overflow, a bad exponent) stays as written. e itself is not
// changed: the model's trees are shared with the runtime.
func fold(e expr.Expr) expr.Expr {
	switch n := e.(type) {
	case *expr.Binary:
		x, y := fold(n.X), fold(n.Y)
		if n.Op == expr.Pow && constant(x) && constant(y) {
			if v, err := expr.Eval(&expr.Binary{Loc: n.Loc, Op: n.Op, X: x, Y: y}, expr.Vars(nil)); err == nil && v.Type().IsNumeric() {
				lit := valueLit(v)
				setLoc(lit, n.Loc)
				return lit
			}
		}
		if x != n.X || y != n.Y {
			return &expr.Binary{Loc: n.Loc, Op: n.Op, X: x, Y: y}
		}
	case *expr.Unary:
		if x := fold(n.X); x != n.X {
			return &expr.Unary{Loc: n.Loc, Op: n.Op, X: x}
		}
	case *expr.Conditional:
		c, x, y := fold(n.Cond), fold(n.Then), fold(n.Else)
		if c != n.Cond || x != n.Then || y != n.Else {
			return &expr.Conditional{Loc: n.Loc, Cond: c, Then: x, Else: y}
		}
	case *expr.FuncCall:
		if x := fold(n.Arg); x != n.Arg {
			return &expr.FuncCall{Loc: n.Loc, Fn: n.Fn, Arg: x}
		}
	}
	return e
}

// constant reports whether e reads no variable.
func constant(e expr.Expr) bool {
	ok := true
	expr.Inspect(e, func(n expr.Expr) bool {
		if _, id := n.(*expr.Ident); id {
			ok = false
		}
		return ok
	})
	return ok
}

func setLoc(e expr.Expr, sp expr.Span) {
	switch n := e.(type) {
	case *expr.IntLit:
		n.Loc = sp
	case *expr.FloatLit:
		n.Loc = sp
	}
}
