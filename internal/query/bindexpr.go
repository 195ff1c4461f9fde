package query

import (
	"errors"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
)

// context is where an expression stands (docs/queries.md).
type context uint8

const (
	ctxInit      context = iota // init ... where c
	ctxFrame                    // assume always / at k
	ctxBody                     // an ordinary property body
	ctxTrigger                  // a response trigger
	ctxTarget                   // a response target
	ctxCallWhere                // a call filter's where clause
)

var contextNames = [...]string{
	ctxInit: "the init where clause", ctxFrame: "a frame assumption",
	ctxBody: "a property body", ctxTrigger: "a response trigger",
	ctxTarget: "a response target", ctxCallWhere: "a call filter's where clause",
}

func (c context) String() string   { return contextNames[c] }
func (c context) allowCycle() bool { return c != ctxInit && c != ctxCallWhere }
func (c context) allowState() bool { return c != ctxCallWhere }
func (c context) allowEvent() bool { return c == ctxTrigger }
func (c context) allowCall() bool  { return c == ctxBody || c == ctxTrigger || c == ctxTarget }

// cond binds a condition: names and contexts first, then types; the result
// must be bool.
func (b *binder) cond(e expr.Expr, ctx context) {
	if e == nil {
		b.fail(CodeQueryShape, b.q.Check.Span, "missing condition in %s", ctx)
	}
	b.names(e, ctx)
	t, err := expr.CheckTypes(e, typeEnv{b}, b.types)
	if err != nil {
		var te *expr.TypeError
		if errors.As(err, &te) {
			b.fail(CodeTypeMismatch, te.Span, "%s", te.Msg)
		}
		b.fail(CodeTypeMismatch, e.Span(), "%v", err)
	}
	if t != expr.Bool {
		b.fail(CodeTypeMismatch, e.Span(), "%s must be a condition (bool), found %s expression %s", ctx, t, short(e))
	}
}

// names resolves the identifiers and atoms of e, in source order.
func (b *binder) names(e expr.Expr, ctx context) {
	expr.Inspect(e, func(n expr.Expr) bool {
		switch n := n.(type) {
		case *expr.Ident:
			b.ident(n, ctx)
		case *expr.AtomCall:
			b.atom(n, ctx)
			return false
		}
		return true
	})
}

func (b *binder) ident(n *expr.Ident, ctx context) {
	if n.Name == "cycle" {
		if !ctx.allowCycle() {
			b.fail(CodeCycleNotAllowed, n.Loc, "cycle is not allowed in %s", ctx)
		}
		return
	}
	if _, ok := b.vars[n.Name]; !ok {
		b.fail(CodeUnknownVariable, n.Loc, "unknown variable %q%s", n.Name, b.varHint())
	}
}

// typeEnv types identifiers and atoms that names has already bound.
type typeEnv struct{ b *binder }

func (t typeEnv) VarType(name string) (expr.Type, bool) {
	if name == "cycle" {
		return expr.Int, true
	}
	ty, ok := t.b.vars[name]
	return ty, ok
}

func (t typeEnv) AtomType(c *expr.AtomCall) (expr.Type, error) {
	switch c.Name {
	case "var":
		return t.b.vars[c.Args[0].Value.(*expr.StringLit).Value], nil
	case "call_count":
		return expr.Int, nil
	}
	return expr.Bool, nil
}

// atom binds one observation atom in its context.
func (b *binder) atom(a *expr.AtomCall, ctx context) {
	switch a.Name {
	case "var":
		lit := a.Args[0].Value.(*expr.StringLit)
		if _, ok := b.vars[lit.Value]; !ok {
			b.fail(CodeUnknownVariable, lit.Loc, "unknown variable %q%s", lit.Value, b.varHint())
		}
	case "active", "terminated":
		if !ctx.allowState() {
			b.fail(CodeCallWhereAtomNotAllowed, a.Loc, "%s(...) is not allowed in %s (snapshot variables only)", a.Name, ctx)
		}
		if a.Name == "active" {
			b.frameSel(a, 1)
			lit := a.Args[0].Value.(*expr.StringLit)
			b.state(lit.Value, lit.Loc)
		} else {
			b.frameSel(a, 0)
		}
	case "event":
		b.eventAtom(a, ctx)
	case "case":
		b.fail(CodeCaseNotAllowed, a.Loc, "case(...) is only allowed as the naked body of a cover check, not in %s", ctx)
	case "called", "call_count":
		if !ctx.allowCall() {
			code := CodeCalledNotAllowed
			if a.Name == "call_count" {
				code = CodeCallCountNotAllowed
			}
			b.fail(code, a.Loc, "%s(...) is not allowed in %s", a.Name, ctx)
		}
		b.calls[a] = b.callFilter(a)
	}
}

func (b *binder) eventAtom(a *expr.AtomCall, ctx context) {
	if !ctx.allowEvent() {
		b.fail(CodeEventNotAllowed, a.Loc, "event(...) is only allowed in a response trigger, not in %s; constrain events with an event assumption", ctx)
	}
	if k, ok := a.Args[1].Value.(*expr.IntLit); ok {
		b.fail(CodeExplicitFrameSelector, k.Loc, "event(..., %s): the trigger reads the event of the current step; constrain an event at a fixed step with an event assumption", expr.Format(k))
	}
	lit := a.Args[0].Value.(*expr.StringLit)
	b.event(Name{Name: lit.Value, Span: lit.Loc})
}

// frameSel rejects an integer frame selector in argument i of a.
func (b *binder) frameSel(a *expr.AtomCall, i int) {
	if i >= len(a.Args) {
		return
	}
	k, ok := a.Args[i].Value.(*expr.IntLit)
	if !ok {
		return
	}
	if k.Big != nil || k.Value > int64(b.n) {
		b.fail(CodeFrameSelectorOutOfRange, k.Loc, "frame selector %s is outside the frames 0..%d (and explicit frame selectors are not allowed: omit it or write current)", expr.Format(k), b.n)
	}
	b.fail(CodeExplicitFrameSelector, k.Loc, "%s(...) is frame-local: its frame selector may only be omitted or current, found %d", a.Name, k.Value)
}

// profile rejects the forms that bind but cannot be lowered (docs/queries.md).
func (b *binder) profile() {
	for _, r := range roots(b.q) {
		expr.Inspect(r, func(n expr.Expr) bool {
			switch n := n.(type) {
			case *expr.FuncCall:
				b.profileFunc(n)
			case *expr.Binary:
				b.profileBinary(n)
			}
			return true
		})
	}
}

// roots returns the top-level expressions of q (some may be nil).
func roots(q *Query) []expr.Expr {
	var out []expr.Expr
	if q.Init != nil {
		out = append(out, q.Init.Where)
	}
	for _, a := range q.Assumes {
		out = append(out, a.Cond)
	}
	return append(out, q.Check.Body, q.Check.Trigger, q.Check.Target)
}

// supportedFuncs are the math functions of the executable profile.
var supportedFuncs = []expr.Func{expr.Sqrt, expr.Abs, expr.Ceil, expr.Floor, expr.Round, expr.Trunc, expr.Sign}

func (b *binder) profileFunc(n *expr.FuncCall) {
	if !slices.Contains(supportedFuncs, n.Fn) {
		b.unsupported(CodeUnsupportedFunctionExpr, n.Loc, "%s(...) is not in the executable profile (supported: sqrt, abs, ceil, floor, round, trunc, sign)", n.Fn)
	}
}

func (b *binder) profileBinary(n *expr.Binary) {
	switch n.Op {
	case expr.BitAnd, expr.BitOr, expr.BitXor:
		b.unsupported(CodeUnsupportedBitwiseExpr, n.Loc, "the bitwise operator %q is not in the executable profile (reserved for a bit-vector profile; boolean xor is \"xor\")", n.Op.String())
	case expr.Shl, expr.Shr:
		b.unsupported(CodeUnsupportedShiftExpr, n.Loc, "the shift operator %q is not in the executable profile (reserved for a bit-vector profile)", n.Op.String())
	case expr.Mod:
		if b.types[n.X] == expr.Real || b.types[n.Y] == expr.Real {
			b.unsupported(CodeUnsupportedRealModExpr, n.Loc, "%% on a float operand is not in the executable profile (only integer %%)")
		}
	case expr.Pow:
		if k, ok := n.Y.(*expr.IntLit); !ok || k.Big != nil || k.Value > maxPowExponent {
			b.unsupported(CodeUnsupportedPowerExpr, n.Loc, "** is only supported with a constant integer exponent 0..%d, found %s", maxPowExponent, short(n.Y))
		}
	}
}
