package inspect

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/z3"
)

// DefaultTimeoutMS is the solver budget of one SMT question when
// Options.TimeoutMS is not set.
const DefaultTimeoutMS = 2000

// Undecided is a question an SMT-backed code asked and got no answer to:
// the solver's unknown (a timeout), an expression outside the fragment
// stateproof decides, or a solver that does not start. No diagnostic is
// claimed for it, either way.
type Undecided struct {
	Code   string `json:"code"` // the code the question was for
	File   string `json:"file"`
	Span   Span   `json:"span"`
	Reason string `json:"reason"`
}

// smtCheck asks the solver the questions of the SMT-backed codes, one
// fresh solver per question. Expressions are lowered by package smt, the
// lowering bmc and prove use, so a guard means the same to all three.
type smtCheck struct {
	a       *analysis
	ctx     *z3.Context
	low     *smt.Encoding
	b       *smt.Builder
	vars    map[string]*z3.Term // every int variable's unknown value
	ints    map[string]bool     // the int variables
	timeout uint32
}

// smtCodes reports W_DEAD_GUARD, W_GUARD_TAUTOLOGY, W_FORCED_GUARD_UNSAT,
// W_EFFECT_SMT_NO_OP, the W_COMBO_GUARD_* codes and the shadowed reason
// of W_UNREACHABLE_TRANSITION (docs/inspect.md#smt-backed-codes).
func (a *analysis) smtCodes(timeoutMS int) {
	if timeoutMS <= 0 {
		timeoutMS = DefaultTimeoutMS
	}
	ctx, err := z3.NewContext()
	if err != nil {
		a.out.Undecided = append(a.out.Undecided, Undecided{Code: "W_DEAD_GUARD", File: a.file, Span: point(1, 1),
			Reason: "the SMT-backed codes were not checked: " + err.Error()})
		return
	}
	defer ctx.Close()
	low := smt.NewLowerer(ctx)
	c := &smtCheck{a: a, ctx: ctx, low: low, b: low.B(), vars: map[string]*z3.Term{}, ints: map[string]bool{}, timeout: uint32(timeoutMS)}
	for _, v := range a.m.Vars {
		if v.Type != model.Int {
			continue
		}
		t, err := ctx.IntConst(v.Name)
		if err != nil {
			a.out.Undecided = append(a.out.Undecided, Undecided{Code: "W_DEAD_GUARD", File: a.file, Span: point(1, 1), Reason: err.Error()})
			return
		}
		c.vars[v.Name], c.ints[v.Name] = t, true
	}
	seen, deadGuard := map[expr.Expr]bool{}, map[*model.Transition]bool{}
	states(a.m.Root, func(s *model.State) {
		for _, t := range s.Transitions {
			if !written(t) || t.Origin != nil && !t.Forced {
				continue // a combo's hops: its guard terms are W_COMBO_GUARD_* (comboGuards)
			}
			st := site{state: sourceState(t), trans: t, file: t.Pos.File}
			dead := false
			if t.Guard != nil && !seen[t.Guard] {
				seen[t.Guard] = true
				dead = c.guard(t, st)
				deadGuard[t] = dead
			}
			if len(t.Effect) > 0 && !dead {
				c.effect(t, st)
			}
		}
	})
	c.comboGuards()
	c.initCoverage()
	states(a.m.Root, func(s *model.State) {
		for _, t := range s.Transitions {
			if e := a.shadowed[t]; e != nil {
				c.transitionShadowed(t, []*model.Transition{e})
			} else if es := a.shadowCandidates[t]; len(es) > 0 && !deadGuard[t] {
				c.shadowed(t, es)
			}
		}
	})
}

// transitionShadowed reports W_TRANSITION_SHADOWED: t is shadowed by es,
// earlier transitions of its source, by structure (one) or by the solver.
func (c *smtCheck) transitionShadowed(t *model.Transition, es []*model.Transition) {
	reason := "guard_shadow"
	switch e := es[0]; {
	case len(es) > 1:
		reason = "prior_trigger_cover"
	case e.Event == nil && e.Guard == nil:
		reason = "unconditional_catchall"
	case e.Event != nil && sameGuard(e.Guard, t.Guard):
		reason = "duplicate_event"
	}
	var by []string
	for _, e := range es {
		by = append(by, fmt.Sprintf("%s (line %d)", c.refs(e)["transition_summary"], e.Pos.Line))
	}
	refs := c.refs(t)
	refs["source_state_path"], refs["selection_domain_kind"], refs["reason"] = t.From.Path, "state_outgoing", reason
	refs["shadowed_by_count"], refs["shadowed_by"] = len(es), by
	c.a.emit("W_TRANSITION_SHADOWED", t.Pos.File, c.a.stmtSpan(t.Pos), refs,
		"transition %s -> %s is never selected: the transitions of %s tried before it (line %d) take every run it could (%s)", endpointPath(t.From), endpointPath(t.To), t.From.Path, es[0].Pos.Line, reason)
}

// shadowed asks whether the earlier transitions es, each taken whenever
// its guard holds, leave t no run: whether t's guard can hold (and not
// raise) while each of theirs is false (and does not raise; a guard that
// raises fails the cycle, so t is not taken then either).
func (c *smtCheck) shadowed(t *model.Transition, es []*model.Transition) {
	const code = "W_UNREACHABLE_TRANSITION"
	if v, ok := lint.ConstantGuard(t.Guard); ok && !v {
		return // guard_false already: no earlier transition is needed to keep it from firing
	}
	span := c.a.stmtSpan(t.Pos)
	f := c.b.Bool(true)
	if t.Guard != nil {
		if why := c.outside(t.Guard, nil); why != "" {
			c.undecided(code, t.Pos.File, span, "shadowed: the guard: "+why)
			return
		}
		g, ok := c.lower(code, t.Pos.File, span, t.Guard, c.scope(nil))
		if !ok {
			return
		}
		f = c.b.And(g.Def, g.T)
	}
	for _, e := range es {
		if why := c.outside(e.Guard, nil); why != "" {
			c.undecided(code, t.Pos.File, span, fmt.Sprintf("shadowed: the guard of the transition on line %d: %s", e.Pos.Line, why))
			return
		}
		g, ok := c.lower(code, t.Pos.File, span, e.Guard, c.scope(nil))
		if !ok {
			return
		}
		f = c.b.And(f, g.Def, c.b.Not(g.T))
	}
	if c.ask(code, t.Pos.File, span, f) == z3.Unsat {
		c.a.shadowedBySMT(t)
		c.transitionShadowed(t, es)
	}
}

// refs are the refs every SMT-backed code carries.
func (c *smtCheck) refs(t *model.Transition) map[string]any {
	tr := map[string]any{"from_path": endpointPath(t.From), "to_path": endpointPath(t.To), "forced": t.Forced}
	if t.Event != nil {
		tr["event"] = t.Event.Path
	}
	summary := endpointPath(t.From) + " -> " + endpointPath(t.To)
	if t.Guard != nil {
		tr["guard_text"] = expr.Format(t.Guard)
		summary += " : if [" + expr.Format(t.Guard) + "]"
	}
	return map[string]any{"algorithm_name": "smt_local", "verification_scope": "smt_local", "transition": tr, "transition_summary": summary}
}

// guard asks whether a guard that reads variables can ever be true, or
// can ever be false, and whether a forced transition's guard holds on the
// initial values; it returns whether the guard is dead.
func (c *smtCheck) guard(t *model.Transition, st site) (dead bool) {
	g := t.Guard
	if _, ok := lint.ConstantGuard(g); ok {
		return false // W_GUARD_CONST_*: decided structurally
	}
	span := exprSpan(g)
	if why := c.outside(g, nil); why != "" {
		c.undecided("W_DEAD_GUARD", st.file, span, why)
		return false
	}
	v, ok := c.lower("W_DEAD_GUARD", st.file, span, g, c.scope(nil))
	if !ok {
		return false
	}
	holds := c.b.And(v.Def, v.T)
	text := c.a.exprText(g, st.file)
	switch c.ask("W_DEAD_GUARD", st.file, span, holds) {
	case z3.Unsat:
		c.a.emit("W_DEAD_GUARD", st.file, span, c.refs(t),
			"guard [%s] is false (or raises) for every value of its int variables: the transition never fires", text)
		return true
	case z3.Sat:
		if c.ask("W_GUARD_TAUTOLOGY", st.file, span, c.b.Not(holds)) == z3.Unsat {
			c.a.emit("W_GUARD_TAUTOLOGY", st.file, span, c.refs(t),
				"guard [%s] is true for every value of its int variables: it constrains nothing", text)
		}
	}
	if t.Forced {
		c.forced(t, st, g, span, text)
	}
	return false
}

// forced asks whether a forced transition's guard holds on the
// variables' declared initial values.
func (c *smtCheck) forced(t *model.Transition, st site, g expr.Expr, span Span, text string) {
	init := map[string]*z3.Term{}
	for _, v := range c.a.m.Vars {
		if !c.ints[v.Name] || v.InitErr != nil || !v.Init.BigInt().IsInt64() {
			continue
		}
		n, err := c.ctx.IntVal(v.Init.BigInt().Int64())
		if err != nil {
			c.undecided("W_FORCED_GUARD_UNSAT", st.file, span, err.Error())
			return
		}
		init[v.Name] = n
	}
	for _, name := range expr.FreeVars(g) {
		if init[name] == nil {
			c.undecided("W_FORCED_GUARD_UNSAT", st.file, span, "variable "+name+" has no int initial value")
			return
		}
	}
	v, ok := c.lower("W_FORCED_GUARD_UNSAT", st.file, span, g, c.scope(init))
	if !ok || c.ask("W_FORCED_GUARD_UNSAT", st.file, span, c.b.And(v.Def, v.T)) != z3.Unsat {
		return
	}
	refs := c.refs(t)
	refs["scope"] = "dsl_def_init_only"
	c.a.emit("W_FORCED_GUARD_UNSAT", st.file, span, refs,
		"forced guard [%s] is false on the variables' initial values", text)
}

// scope resolves a variable to its term in vals, else to its unknown.
func (c *smtCheck) scope(vals map[string]*z3.Term) smt.Scope {
	return smt.Scope{Var: func(name string) *z3.Term {
		if t := vals[name]; t != nil {
			return t
		}
		return c.vars[name]
	}}
}

// lower lowers e, its side conditions folded into its definedness; a
// lowering error is an undecided question.
func (c *smtCheck) lower(code, file string, span Span, e expr.Expr, sc smt.Scope) (smt.Value, bool) {
	v, err := c.low.Lower(e, sc)
	if err != nil {
		c.undecided(code, file, span, err.Error())
		return smt.Value{}, false
	}
	if ax := c.low.TakeAxioms(); len(ax) > 0 {
		v.Def = c.b.And(append(ax, v.Def)...)
	}
	if err := c.b.Err(); err != nil {
		c.undecided(code, file, span, err.Error())
		return smt.Value{}, false
	}
	return v, true
}

// ask checks f on a fresh solver within the budget; anything but sat or
// unsat is an undecided question, with the solver's reason.
func (c *smtCheck) ask(code, file string, span Span, f *z3.Term) z3.Result {
	if err := c.b.Err(); err != nil {
		c.undecided(code, file, span, err.Error())
		return z3.Unknown
	}
	s, err := c.ctx.NewSolver()
	if err == nil {
		err = s.SetTimeout(c.timeout)
	}
	if err == nil {
		err = s.Assert(f)
	}
	if err != nil {
		c.undecided(code, file, span, err.Error())
		return z3.Unknown
	}
	r, err := s.Check()
	switch {
	case err != nil:
		c.undecided(code, file, span, err.Error())
	case r == z3.Unknown:
		c.undecided(code, file, span, fmt.Sprintf("the solver answered unknown (%s) within %d ms", s.ReasonUnknown(), c.timeout))
	}
	return r
}

func (c *smtCheck) undecided(code, file string, span Span, reason string) {
	if file == "" {
		file = c.a.file
	}
	c.a.out.Undecided = append(c.a.out.Undecided, Undecided{Code: code, File: file, Span: span, Reason: reason})
}

// outside says why e is outside the fragment the SMT codes decide, or ""
// when it is inside: integers only (int variables, integer and boolean
// literals, no true division, power, math function or named constant),
// where the solver's arithmetic is the runtime's exactly. A float is a
// double at run time, which the solver's reals are not.
func (c *smtCheck) outside(e expr.Expr, temps map[string]bool) string {
	why := ""
	expr.Inspect(e, func(n expr.Expr) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *expr.IntLit, *expr.BoolLit, *expr.Unary, *expr.Conditional:
		case *expr.Ident:
			if !c.ints[n.Name] && !temps[n.Name] {
				why = "it reads " + n.Name + ", which is not an int variable (the SMT codes decide integer expressions only)"
			}
		case *expr.Binary:
			if n.Op == expr.Div || n.Op == expr.Pow {
				why = "it uses " + n.Op.String() + ", whose result may be a float (the SMT codes decide integer expressions only)"
			}
		default:
			why = fmt.Sprintf("it has a %s, outside the integer expressions the SMT codes decide", expr.Format(n))
		}
		return true
	})
	return why
}

// effect asks whether a transition's effect can change a variable on
// some run that takes the transition (its guard true, nothing raising).
func (c *smtCheck) effect(t *model.Transition, st site) {
	const code = "W_EFFECT_SMT_NO_OP"
	span := c.a.stmtSpan(stmtPos(t.Effect[0]))
	enabled := c.b.Bool(true)
	if t.Guard != nil {
		if why := c.outside(t.Guard, nil); why != "" {
			c.undecided(code, st.file, span, "the guard: "+why)
			return
		}
		g, ok := c.lower(code, st.file, span, t.Guard, c.scope(nil))
		if !ok {
			return
		}
		enabled = c.b.And(g.Def, g.T)
	}
	env := map[string]*z3.Term{}
	for n, v := range c.vars {
		env[n] = v
	}
	post, def, why := c.exec(t.Effect, env, map[string]bool{})
	if why != "" {
		c.undecided(code, st.file, span, why)
		return
	}
	if t.Guard != nil {
		c.effectContradicts(t, st, span, c.b.And(enabled, def), post)
	}
	var changed []*z3.Term
	for n, v := range c.vars {
		if post[n] != v {
			changed = append(changed, c.b.Not(c.b.Eq(post[n], v)))
		}
	}
	if len(changed) > 0 && c.ask(code, st.file, span, c.b.And(enabled, def, c.b.Or(changed...))) != z3.Unsat {
		return
	}
	c.a.emit(code, st.file, span, c.refs(t),
		"the effect of %s -> %s leaves every variable as it was on every run that takes the transition", endpointPath(t.From), endpointPath(t.To))
}

// exec runs ops symbolically from env: the variables' values after them
// and the condition under which nothing raises; why is set when an
// operation is outside the integer fragment.
func (c *smtCheck) exec(ops []model.Stmt, env map[string]*z3.Term, temps map[string]bool) (map[string]*z3.Term, *z3.Term, string) {
	def := c.b.Bool(true)
	for _, op := range ops {
		switch n := op.(type) {
		case *model.Assign:
			if !n.Temp && !c.ints[n.Name] {
				return nil, nil, "it assigns " + n.Name + ", which is not an int variable (the SMT codes decide integer expressions only)"
			}
			if why := c.outside(n.Value, temps); why != "" {
				return nil, nil, why
			}
			v, err := c.low.Lower(n.Value, smt.Scope{Var: func(name string) *z3.Term { return env[name] }})
			if err != nil {
				return nil, nil, err.Error()
			}
			def = c.b.And(append(c.low.TakeAxioms(), def, v.Def)...)
			env = clone(env)
			env[n.Name] = v.T
			if n.Temp {
				temps = cloneSet(temps)
				temps[n.Name] = true
			}
		case *model.If:
			var why string
			if env, def, why = c.execIf(n, env, def, temps); why != "" {
				return nil, nil, why
			}
		}
	}
	return env, def, c.errText()
}

// execIf merges the branches of an if: the first branch whose condition
// holds runs, else the else branch (or nothing).
func (c *smtCheck) execIf(n *model.If, env map[string]*z3.Term, def *z3.Term, temps map[string]bool) (map[string]*z3.Term, *z3.Term, string) {
	accEnv, accDef, why := env, c.b.Bool(true), ""
	if n.Else != nil {
		if accEnv, accDef, why = c.exec(n.Else, env, temps); why != "" {
			return nil, nil, why
		}
	}
	for i := len(n.Branches) - 1; i >= 0; i-- {
		br := n.Branches[i]
		if why := c.outside(br.Cond, temps); why != "" {
			return nil, nil, why
		}
		cond, err := c.low.Lower(br.Cond, smt.Scope{Var: func(name string) *z3.Term { return env[name] }})
		if err != nil {
			return nil, nil, err.Error()
		}
		thenEnv, thenDef, why := c.exec(br.Body, env, temps)
		if why != "" {
			return nil, nil, why
		}
		merged := map[string]*z3.Term{}
		for name := range env {
			x, y := thenEnv[name], accEnv[name]
			if x == y {
				merged[name] = x
				continue
			}
			m, err := c.ctx.Ite(cond.T, x, y)
			if err != nil {
				return nil, nil, err.Error()
			}
			merged[name] = m
		}
		d, err := c.ctx.Ite(cond.T, thenDef, accDef)
		if err != nil {
			return nil, nil, err.Error()
		}
		accEnv, accDef = merged, c.b.And(append(c.low.TakeAxioms(), cond.Def, d)...)
	}
	return accEnv, c.b.And(def, accDef), c.errText()
}

func (c *smtCheck) errText() string {
	if err := c.b.Err(); err != nil {
		return err.Error()
	}
	return ""
}

func stmtPos(s model.Stmt) model.Pos {
	if n, ok := s.(*model.If); ok {
		return n.Pos
	}
	return s.(*model.Assign).Pos
}

func clone(m map[string]*z3.Term) map[string]*z3.Term {
	out := make(map[string]*z3.Term, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func cloneSet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// effectContradicts reports I_EFFECT_GUARD_CONTRADICT: on every run that
// takes t (taken: its guard true and its effect not raising), t's guard
// is false (or raises) on the values the effect leaves.
func (c *smtCheck) effectContradicts(t *model.Transition, st site, span Span, taken *z3.Term, post map[string]*z3.Term) {
	const code = "I_EFFECT_GUARD_CONTRADICT"
	g, ok := c.lower(code, st.file, span, t.Guard, smt.Scope{Var: func(name string) *z3.Term { return post[name] }})
	if !ok || c.ask(code, st.file, span, taken) != z3.Sat {
		return // undecided, or no run takes it (W_DEAD_GUARD's or a raising effect's)
	}
	if c.ask(code, st.file, span, c.b.And(taken, g.Def, g.T)) == z3.Unsat {
		c.a.emit(code, st.file, span, c.refs(t),
			"the effect of %s -> %s makes its guard [%s] false on every run that takes it", endpointPath(t.From), endpointPath(t.To), expr.Format(t.Guard))
	}
}
