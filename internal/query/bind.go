package query

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
)

// BindOptions tunes Bind.
type BindOptions struct {
	// MaxBound, when > 0, is the largest accepted bound (--max-bound).
	// Decision (docs/queries.md): no default limit.
	MaxBound int
	// LTL admits `check ltl` (docs/queries.md#ltl): the caller decides it
	// (verify on an FCSTM model); bmc does not.
	LTL bool
}

// binder holds the names of one system while binding one query.
type binder struct {
	q       *Query
	sys     *sts.System
	n       int // the bound N
	vars    map[string]expr.Type
	states  map[string]bool // location names and their ancestors
	actions map[string]bool // actions of the cases' call records
	refs    map[string]bool // named refs of the cases' call records
	types   map[expr.Expr]expr.Type
	calls   map[*expr.AtomCall]*CallFilter
}

// Bind checks q against sys (docs/queries.md): names, bounds, selectors,
// context rules, call filters, typing and the executable profile. On
// success it fills q.Calls with the bound filter of every called(...) and
// call_count(...) atom, and q.Check.CaseLabel for cover. The error, if
// any, is an *Error of class ClassInvalid or ClassUnsupported; every
// invalid-query check runs before the executable-profile check.
func Bind(q *Query, sys *sts.System, opts BindOptions) (err error) {
	q.Calls, q.Check.CaseLabel = nil, ""
	b := newBinder(q, sys)
	defer func() {
		if r := recover(); r != nil {
			bo, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			err = bo.err
		}
	}()
	label := b.bind(opts)
	q.Calls, q.Check.CaseLabel = b.calls, label
	return nil
}

func newBinder(q *Query, sys *sts.System) *binder {
	b := &binder{
		q: q, sys: sys, n: q.Check.Bound,
		vars: map[string]expr.Type{}, states: map[string]bool{},
		actions: map[string]bool{}, refs: map[string]bool{},
		types: map[expr.Expr]expr.Type{}, calls: map[*expr.AtomCall]*CallFilter{},
	}
	for _, v := range sys.Vars {
		b.vars[v.Name] = sortType(v.Sort)
	}
	for _, l := range sys.Locations {
		b.states[l.Name] = true
		for _, a := range l.Ancestors {
			b.states[a] = true
		}
	}
	for _, cs := range sys.Cases {
		for _, c := range cs {
			for _, call := range c.Calls {
				b.actions[call.Action] = true
				if call.NamedRef != "" {
					b.refs[call.NamedRef] = true
				}
			}
		}
	}
	return b
}

func sortType(s sts.Sort) expr.Type {
	switch s {
	case sts.Real:
		return expr.Real
	case sts.Bool:
		return expr.Bool
	}
	return expr.Int
}

func (b *binder) fail(code string, sp expr.Span, format string, args ...any) {
	panic(bailout{newError(ClassInvalid, code, b.q.File, sp, format, args...)})
}

func (b *binder) unsupported(code string, sp expr.Span, format string, args ...any) {
	panic(bailout{newError(ClassUnsupported, code, b.q.File, sp, format, args...)})
}

// bind runs every check and returns the cover label.
func (b *binder) bind(opts BindOptions) string {
	// A query built by code has not been through the parser's atom
	// grammar; check it here too (a parse-class error).
	ps := &parser{file: b.q.File}
	for _, r := range roots(b.q) {
		ps.validate(r)
	}
	if b.q.Check.Kind == LTL {
		b.ltl(opts)
		return ""
	}
	b.shape(opts)
	if in := b.q.Init; in != nil {
		b.init(in)
	}
	for i := range b.q.Assumes {
		b.assume(&b.q.Assumes[i])
	}
	label := b.check()
	b.fair()
	b.profile()
	return label
}

// shape checks the bound, the window and the body form of the kind.
func (b *binder) shape(opts BindOptions) {
	c := &b.q.Check
	switch {
	case c.Bound < 1:
		b.fail(CodeQueryShape, c.BoundSpan, "the bound must be at least 1, found %d", c.Bound)
	case opts.MaxBound > 0 && c.Bound > opts.MaxBound:
		b.fail(CodeQueryShape, c.BoundSpan, "the bound %d exceeds the maximum bound %d (--max-bound)", c.Bound, opts.MaxBound)
	}
	if c.Kind == Response {
		if c.Trigger == nil || c.Target == nil {
			b.fail(CodeQueryShape, spanOf(c.Body, c.Span), "a response body is `trigger t -> within W r`")
		}
		if c.Window < 1 {
			b.fail(CodeQueryShape, c.WindowSpan, "the response window must be at least 1, found %d", c.Window)
		}
		return
	}
	if c.Trigger != nil || c.Body == nil {
		b.fail(CodeQueryShape, spanOf(c.Trigger, c.Span), "`trigger t -> within W r` is the body of a response check only; a %s check takes one condition", c.Kind)
	}
}

func spanOf(e expr.Expr, def expr.Span) expr.Span {
	if e != nil {
		return e.Span()
	}
	return def
}

func (b *binder) init(in *Init) {
	if in.Mode == State {
		b.reserved(in.State.Name, in.State.Span)
		if b.sys.LocationByName(in.State.Name) == nil {
			if b.states[in.State.Name] {
				b.fail(CodeUnknownState, in.State.Span, "%q is a composite state, not a stable state of the model; init state(...) names one", in.State.Name)
			}
			b.fail(CodeUnknownState, in.State.Span, "unknown state %q%s", in.State.Name, b.stateHint())
		}
	}
	seen := map[string]bool{}
	for _, h := range in.Havoc {
		if seen[h.Name] {
			b.fail(CodeDuplicateHavocVariable, h.Span, "variable %q is havocked twice", h.Name)
		}
		seen[h.Name] = true
		if _, ok := b.vars[h.Name]; !ok {
			b.fail(CodeUnknownVariable, h.Span, "unknown variable %q in the havoc list%s", h.Name, b.varHint())
		}
	}
	if in.Where != nil {
		b.cond(in.Where, ctxInit)
	}
}

func (b *binder) assume(a *Assume) {
	switch a.Kind {
	case AssumeAlways:
		b.cond(a.Cond, ctxFrame)
	case AssumeAt:
		if a.Frame < 0 || a.Frame > b.n {
			b.fail(CodeFrameSelectorOutOfRange, a.FrameSpan, "assume at %d: the frame must be in 0..%d (the frames of bound %d)", a.Frame, b.n, b.n)
		}
		b.cond(a.Cond, ctxFrame)
	case AssumeEvent:
		b.event(a.Event)
		b.eventSteps(a)
	case AssumeCardinality:
		if a.Any {
			return
		}
		if len(a.Pool) == 0 {
			b.fail(CodeQueryShape, a.Span, "at_most_one needs at least one event")
		}
		seen := map[string]bool{}
		for _, e := range a.Pool {
			b.event(e)
			if seen[e.Name] {
				b.fail(CodeQueryShape, e.Span, "event %q is listed twice in at_most_one", e.Name)
			}
			seen[e.Name] = true
		}
	}
}

// eventSteps checks the selector of an event assumption against the steps
// 0..N-1.
func (b *binder) eventSteps(a *Assume) {
	s := a.Steps
	switch {
	case s.All:
	case !s.Range && (s.Lo < 0 || s.Lo >= b.n):
		b.fail(CodeEventSelectorOutOfRange, a.StepsSpan, "event step %d is outside the steps 0..%d of bound %d", s.Lo, b.n-1, b.n)
	case s.Range && !(0 <= s.Lo && s.Lo <= s.Hi && s.Hi < b.n):
		b.fail(CodeEventRangeOutOfRange, a.StepsSpan, "event range %d..%d must satisfy 0 <= start <= end <= %d (the steps of bound %d)", s.Lo, s.Hi, b.n-1, b.n)
	}
}

func (b *binder) event(e Name) {
	if b.sys.EventIndex(e.Name) < 0 {
		b.fail(CodeUnknownEvent, e.Span, "unknown event %q%s", e.Name, b.eventHint())
	}
}

// reserved rejects the sentinel names.
func (b *binder) reserved(name string, sp expr.Span) {
	if name == "__init__" || name == "__terminate__" {
		b.fail(CodeReservedStatePath, sp, "%q is a reserved sentinel, not a state of the model", name)
	}
}

// state checks a state path used by active(...) or a call filter: a
// location or one of its ancestors.
func (b *binder) state(name string, sp expr.Span) {
	b.reserved(name, sp)
	if !b.states[name] {
		b.fail(CodeUnknownState, sp, "unknown state %q%s", name, b.stateHint())
	}
}

// check binds the check clause and returns the cover label.
func (b *binder) check() string {
	c := &b.q.Check
	switch c.Kind {
	case Cover:
		return b.cover(c)
	case Response:
		b.cond(c.Trigger, ctxTrigger)
		b.cond(c.Target, ctxTarget)
	default:
		b.cond(c.Body, ctxBody)
	}
	return ""
}

// cover checks the naked case("label") body of a cover check.
func (b *binder) cover(c *Check) string {
	a, ok := c.Body.(*expr.AtomCall)
	if !ok || a.Name != "case" {
		b.fail(CodeCoverPredicate, c.Body.Span(), `a cover body must be exactly one naked case("label") atom, found %s`, short(c.Body))
	}
	b.frameSel(a, 1)
	lit := a.Args[0].Value.(*expr.StringLit)
	var kinds []string
	for _, src := range b.sys.Sources() {
		for _, k := range b.sys.Cases[src] {
			if k.Label != lit.Value {
				continue
			}
			if k.Kind == sts.Transition || k.Kind == sts.Fallback {
				return lit.Value
			}
			kinds = append(kinds, k.Kind.String())
		}
	}
	if len(kinds) == 0 {
		b.fail(CodeCoverPredicate, lit.Loc, "unknown case label %q", lit.Value)
	}
	b.fail(CodeCoverPredicate, lit.Loc, "case %q has kind %s; cover needs a transition or fallback case", lit.Value, kinds[0])
	return ""
}

// The hints list a few of the known names.

func (b *binder) stateHint() string {
	var names []string
	for n := range b.states {
		names = append(names, n)
	}
	return hint("states", names)
}

func (b *binder) varHint() string {
	var names []string
	for _, v := range b.sys.Vars {
		names = append(names, v.Name)
	}
	return hint("variables", names)
}

func (b *binder) eventHint() string {
	var names []string
	for _, e := range b.sys.Events {
		names = append(names, e.Name)
	}
	return hint("events", names)
}

func hint(what string, names []string) string {
	if len(names) == 0 {
		return " (the model has no " + what + ")"
	}
	slices.Sort(names)
	const most = 8
	more := ""
	if len(names) > most {
		names, more = names[:most], ", ..."
	}
	for i, n := range names {
		names[i] = strconv.Quote(n)
	}
	return " (known " + what + ": " + strings.Join(names, ", ") + more + ")"
}
