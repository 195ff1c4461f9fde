package query

import (
	"math"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
)

// callStages and callRoles are the values of the stage and role dimensions
// (docs/queries.md).
var (
	callStages = []string{"enter", "during", "exit"}
	callRoles  = []string{
		"state_enter", "state_exit", "leaf_during", "plain_during_before",
		"plain_during_after", "aspect_during_before", "aspect_during_after",
		"transition_effect",
	}
)

// Argument phases of a call filter: the action path, then the step
// selector, then named dimensions, then where.
const (
	phaseStart = iota
	phaseAction
	phaseNamed
	phaseWhere
)

// callFilter binds the arguments of called(...) / call_count(...). An
// omitted step selector is the anchor step (docs/queries.md).
func (b *binder) callFilter(a *expr.AtomCall) *CallFilter {
	f := &CallFilter{Steps: CallSteps{LoRel: true, HiRel: true}}
	seen := map[string]bool{}
	phase := phaseStart
	for _, arg := range a.Args {
		switch arg.Kind {
		case expr.ArgPositional:
			phase = b.positional(f, arg, phase, seen)
		case expr.ArgNamed:
			if phase == phaseWhere {
				b.fail(CodeQueryShape, arg.Loc, "where must be the last argument of %s(...)", a.Name)
			}
			phase = phaseNamed
			if seen[arg.Name] {
				b.fail(CodeQueryShape, arg.Loc, "the %s dimension is given twice in %s(...)", arg.Name, a.Name)
			}
			seen[arg.Name] = true
			b.dimension(f, arg)
		case expr.ArgWhere:
			if phase == phaseWhere {
				b.fail(CodeQueryShape, arg.Loc, "where is given twice in %s(...)", a.Name)
			}
			phase = phaseWhere
			b.cond(arg.Value, ctxCallWhere)
			f.Where = arg.Value
		}
	}
	return f
}

// positional binds a positional argument: the action path (first) or the
// step selector (after the action, before any named dimension).
func (b *binder) positional(f *CallFilter, arg expr.Arg, phase int, seen map[string]bool) int {
	if lit, ok := arg.Value.(*expr.StringLit); ok {
		if phase != phaseStart {
			b.fail(CodeQueryShape, arg.Loc, "the action path must be the first argument of a call filter")
		}
		seen["action"] = true
		b.action(f, lit.Value, lit.Loc)
		return phaseAction
	}
	switch {
	case seen["step"]:
		b.fail(CodeQueryShape, arg.Loc, "the step dimension is given twice in a call filter")
	case phase > phaseAction:
		b.fail(CodeQueryShape, arg.Loc, "a positional step selector must come before the named dimensions and where")
	}
	seen["step"] = true
	f.Steps = b.steps(arg.Value)
	return phaseNamed
}

// text returns the string a dimension value spells: a string literal or a
// bare name.
func text(v expr.Expr) (string, bool) {
	switch v := v.(type) {
	case *expr.StringLit:
		return v.Value, true
	case *expr.Ident:
		return v.Name, true
	}
	return "", false
}

func (b *binder) dimension(f *CallFilter, arg expr.Arg) {
	v := arg.Value
	s, isText := text(v)
	switch arg.Name {
	case "action":
		if !isText {
			b.fail(CodeQueryShape, v.Span(), "action= takes an action path string, found %s", short(v))
		}
		b.action(f, s, v.Span())
	case "step":
		if isText {
			b.fail(CodeQueryShape, v.Span(), "step= takes a step selector (*, k, +k, -k, a..b), found %s", short(v))
		}
		f.Steps = b.steps(v)
	case "stage":
		if !isText || !slices.Contains(callStages, s) {
			b.fail(CodeCallStage, v.Span(), `the call stage must be "enter", "during" or "exit", found %s`, short(v))
		}
		f.Stage = s
	case "role":
		if !isText || !slices.Contains(callRoles, s) {
			b.fail(CodeCallRole, v.Span(), "unknown call role %s (roles: state_enter, state_exit, leaf_during, plain_during_before, plain_during_after, aspect_during_before, aspect_during_after, transition_effect)", short(v))
		}
		f.Role = s
	case "state", "active_leaf":
		if !isText {
			b.fail(CodeQueryShape, v.Span(), "%s= takes a state path string, found %s", arg.Name, short(v))
		}
		b.state(s, v.Span())
		if arg.Name == "state" {
			f.State = s
		} else {
			f.ActiveLeaf = s
		}
	case "named_ref":
		b.namedRef(f, v)
	default:
		b.fail(CodeQueryShape, arg.Loc, "unknown call filter dimension %q (action, step, stage, role, state, active_leaf, named_ref, where)", arg.Name)
	}
}

func (b *binder) action(f *CallFilter, name string, sp expr.Span) {
	if !b.actions[name] {
		var names []string
		for a := range b.actions {
			names = append(names, a)
		}
		b.fail(CodeUnknownCallAction, sp, "unknown call action %q%s", name, hint("actions", names))
	}
	f.Action = name
}

// namedRef binds named_ref="Root.A.Ref" or named_ref=null.
func (b *binder) namedRef(f *CallFilter, v expr.Expr) {
	if id, ok := v.(*expr.Ident); ok && id.Name == "null" {
		f.NamedRef = new(string)
		return
	}
	lit, ok := v.(*expr.StringLit)
	if !ok {
		b.fail(CodeQueryShape, v.Span(), "named_ref= takes a named ref path string or null, found %s", short(v))
	}
	if !b.refs[lit.Value] {
		var names []string
		for r := range b.refs {
			names = append(names, r)
		}
		b.fail(CodeUnknownNamedRef, lit.Loc, "unknown named ref %q%s", lit.Value, hint("named refs", names))
	}
	f.NamedRef = &lit.Value
}

// steps binds a step selector: *, a point, or a range whose missing ends
// are the anchor.
func (b *binder) steps(v expr.Expr) CallSteps {
	switch v := v.(type) {
	case *expr.Wildcard:
		return CallSteps{All: true}
	case *expr.Range:
		s := CallSteps{LoRel: true, HiRel: true}
		if v.Lo != nil {
			s.Lo, s.LoRel = b.point(v.Lo)
		}
		if v.Hi != nil {
			s.Hi, s.HiRel = b.point(v.Hi)
		}
		return s
	}
	if !isPoint(v) {
		b.fail(CodeQueryShape, v.Span(), "expected a step selector (*, k, +k, -k, a..b), found %s", short(v))
	}
	k, rel := b.point(v)
	return CallSteps{Lo: k, Hi: k, LoRel: rel, HiRel: rel}
}

// point binds k (an absolute step in 0..N-1), +k or -k (relative to the
// anchor; clipped later, so its size is capped where it cannot matter).
func (b *binder) point(v expr.Expr) (int, bool) {
	sign := int64(0)
	if u, ok := v.(*expr.Unary); ok {
		sign, v = 1, u.X
		if u.Op == expr.Neg {
			sign = -1
		}
	}
	k := v.(*expr.IntLit)
	value := k.Value
	if k.Big != nil { // past int64: as far out of range as any large step
		value = math.MaxInt64
	}
	if sign == 0 {
		if value >= int64(b.n) {
			b.fail(CodeCallStepOutOfRange, k.Loc, "absolute call step %s is outside the steps 0..%d of bound %d", expr.Format(k), b.n-1, b.n)
		}
		return int(value), false
	}
	return int(sign * min(value, maxClauseInt)), true
}
