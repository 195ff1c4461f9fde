package smt

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// Stage is the layer of the staged solve a group belongs to (docs/queries.md).
type Stage uint8

// Stages, in the order they accumulate.
const (
	Kernel     Stage = iota // domain and transition relation, D_N ∧ T_N
	Init                    // initialisation I_0
	Assumption              // environment ENV_N
)

func (s Stage) String() string {
	return [...]string{"kernel", "initialization", "assumptions"}[s]
}

// Group is one tracked constraint: a stable id, where it came from, and
// the activation literal it is asserted behind.
type Group struct {
	ID      string
	Stage   Stage
	Role    string // domain_rule, transition_rule, initial_fact, assumption, definedness (docs/queries.md)
	Src     sts.Source
	Frame   int // the frame or step it constrains; -1 when it spans several
	Formula *z3.Term
	// Units are the parts of a step relation (one per case), for an
	// explanation that binds a core member to one case: unit i belongs to
	// selector i of the step; the exclusions of Excluded follow them.
	Units []*z3.Term
	// Excluded are the error cases whose antecedent the step relation
	// excludes (the runtime raises there), in Units order after the
	// selectors' units, so an explanation can say where.
	Excluded []*sts.Case
	Lit      *z3.Term
}

// Selector is the selection literal of one case at one step.
type Selector struct {
	Source int // source location (or sentinel)
	Index  int // index into System.Cases[Source]
	Case   *sts.Case
	Term   *z3.Term
	// Snapshots holds, per call record of Case, the variable values the
	// call sees (Vars of the step's frame after Case.Effects[:After]): a
	// call between two blocks of a case sees neither frame.
	Snapshots [][]*z3.Term
}

// Encoding is the bounded unrolling of a system: the frame and step
// symbols, the tracked groups, and the solver they are asserted in.
type Encoding struct {
	b      builder
	Sys    *sts.System
	Solver *z3.Solver

	States []*z3.Term   // F_i_state per frame
	Vars   [][]*z3.Term // F_i_<var> per frame
	Events [][]*z3.Term // E_i_event_<id>_<name> per step
	Delta  []*z3.Term   // per step
	Gamma  []*z3.Term   // per step
	Sels   [][]Selector // per step, in System.Sources() order
	// Raises are, per step, the error cases the step relation excludes
	// and when they would be taken: a run that meets one within the bound
	// raises in the runtime, which no trace can show (see Raising).
	Raises []Raising

	Groups []*Group

	// Cancelled, when set, is asked before each case is encoded; an error
	// from it stops Extend (wrapped), so that a budget holds inside one
	// step of a model with thousands of cases, whose encoding alone can
	// take a minute.
	Cancelled func() error
	// lean is the frame shape of NewLeanEncoding; nil for the tracked
	// shape of NewEncoding.
	lean   *leanShape
	start  int        // the start source (System.StepSources)
	axioms []*z3.Term // side conditions of fresh symbols (sqrt), asserted with the next step relation
	// sqrts maps the ID of a sqrt's argument to its result among the
	// axioms not yet taken: every case of a step lowers the same during
	// block, and one result per argument instead of one per case keeps
	// the non-linear problem as small as the model (six results per step
	// took the sqrt of docs/fcstm.md's example from 0.6 s to 4 s). The
	// axiom refers to the argument, so its ID is not reused meanwhile.
	sqrts     map[uint32]*z3.Term
	symbols   int
	constants int
	nfresh    int
	// freshConsts are the fresh constants made since TakeFresh.
	freshConsts []*z3.Term
}

// NewEncoding creates the frame-0 symbols of sys in a fresh solver of ctx;
// Extend adds steps.
func NewEncoding(ctx *z3.Context, sys *sts.System) (*Encoding, error) {
	s, err := ctx.NewSolver()
	if err != nil {
		return nil, fmt.Errorf("smt: creating solver: %w", err)
	}
	enc := &Encoding{b: builder{ctx: ctx}, Sys: sys, Solver: s, start: sys.Start}
	enc.addFrame()
	if enc.b.err != nil {
		return nil, enc.b.err
	}
	return enc, nil
}

// SetStart sets the start source of the run (by default System.Start),
// which decides the cases of each step; call it before Extend.
func (enc *Encoding) SetStart(id int) { enc.start = id }

// Bound is the number of steps unrolled so far.
func (enc *Encoding) Bound() int { return len(enc.Delta) }

// Symbols is the number of trace symbols (equation 5 of seed 002):
// (N+1)(V+1) + N(E+2) + Σ K_i. Each is a term the decoder reads; in the
// tracked shape each is also a solver constant, in the lean shape most are
// defined terms over fewer constants (Constants, docs/queries.md).
func (enc *Encoding) Symbols() int { return enc.symbols }

// Constants is the number of uninterpreted constants the trace symbols are
// built from (activation literals and fresh sqrt results not included).
func (enc *Encoding) Constants() int { return enc.constants }

// BeyondLIA reports whether a term outside linear integer arithmetic was
// built so far (a non-linear product or quotient, a real, a conversion).
func (enc *Encoding) BeyondLIA() bool { return enc.b.beyondLIA }

// NonLinear reports whether a product of two non-constants or a division
// by a non-constant was built (a sqrt's axiom is one): Z3's incremental
// core, which checks under assumptions, can run for minutes on such
// formulas where its non-linear procedure answers in a second.
func (enc *Encoding) NonLinear() bool { return enc.b.nonlinear }

// Ctx is the Z3 context.
func (enc *Encoding) Ctx() *z3.Context { return enc.b.ctx }

// sqrtOf is the fresh result of sqrt(xr) with its axiom: xr >= 0 implies
// r >= 0 and r*r = xr.
func (enc *Encoding) sqrtOf(xr *z3.Term) *z3.Term {
	if !enc.b.ok(xr) {
		return nil
	}
	if r, ok := enc.sqrts[xr.ID()]; ok {
		return r
	}
	b := &enc.b
	r := enc.fresh("sqrt")
	zero := b.realFromString("0")
	enc.axioms = append(enc.axioms, b.implies(b.arith(">=", xr, zero), b.and(b.arith(">=", r, zero), b.eq(b.arith("*", r, r), xr))))
	if enc.sqrts == nil {
		enc.sqrts = map[uint32]*z3.Term{}
	}
	enc.sqrts[xr.ID()] = r
	return r
}

// takeAxioms returns, and forgets, the axioms not yet asserted (and the
// sqrt results they define, which later steps must not reuse).
func (enc *Encoding) takeAxioms() []*z3.Term {
	ax := enc.axioms
	enc.axioms, enc.sqrts = nil, nil
	return ax
}

func (enc *Encoding) fresh(prefix string) *z3.Term {
	enc.nfresh++
	t := enc.b.realConst(fmt.Sprintf("%s!%d", prefix, enc.nfresh))
	enc.freshConsts = append(enc.freshConsts, t)
	return t
}

// bind returns a fresh constant of t's sort defined equal to t (an axiom
// of the step, like a sqrt result's): a bound temporary (sts.Effect.Bind).
func (enc *Encoding) bind(t *z3.Term) *z3.Term {
	b := &enc.b
	if !b.ok(t) {
		return nil
	}
	enc.nfresh++
	name := fmt.Sprintf("tmp!%d", enc.nfresh)
	var c *z3.Term
	switch t.SortKind() {
	case z3.SortBool:
		c = b.boolConst(name)
	case z3.SortReal:
		c = b.realConst(name)
	default:
		c = b.intConst(name)
	}
	enc.freshConsts = append(enc.freshConsts, c)
	enc.axioms = append(enc.axioms, b.eq(c, t))
	return c
}

// TakeFresh returns, and forgets, the fresh constants made since the last
// call (sqrt results, bound temporaries), so that a caller printing a
// formula with them can bind them (a Horn clause's forall).
func (enc *Encoding) TakeFresh() []*z3.Term {
	fs := enc.freshConsts
	enc.freshConsts = nil
	return fs
}

func (enc *Encoding) addFrame() {
	i := len(enc.States)
	b := &enc.b
	if enc.lean != nil {
		enc.States = append(enc.States, enc.lean.frame(b, i))
	} else {
		enc.States = append(enc.States, b.intConst(fmt.Sprintf("F_%d_state", i)))
		enc.constants++
	}
	vars := make([]*z3.Term, len(enc.Sys.Vars))
	for k, v := range enc.Sys.Vars {
		// "var_" keeps a model's names apart from the encoder's own
		// (F_i_state): one name and sort is one Z3 constant.
		name := fmt.Sprintf("F_%d_var_%s", i, v.Name)
		switch v.Sort {
		case sts.Bool:
			vars[k] = b.boolConst(name)
		case sts.Real:
			vars[k] = b.realConst(name)
		default:
			vars[k] = b.intConst(name)
		}
	}
	enc.Vars = append(enc.Vars, vars)
	enc.symbols += 1 + len(vars)
	enc.constants += len(vars)
	if enc.lean == nil {
		enc.domain(i)
	}
}

// At is the formula "frame i is at location (or sentinel) id".
func (enc *Encoding) At(i, id int) *z3.Term {
	if enc.lean != nil {
		return enc.lean.at(&enc.b, i, id)
	}
	return enc.b.eq(enc.States[i], enc.b.intVal(int64(id)))
}

// domain constrains the state of frame i to the locations (D_N).
func (enc *Encoding) domain(i int) {
	b := &enc.b
	s := enc.States[i]
	var opts []*z3.Term
	if i == 0 {
		for _, id := range []int{sts.InitID, sts.TerminatedID} {
			if _, ok := enc.Sys.Cases[id]; ok || enc.Sys.Start == id {
				opts = append(opts, b.eq(s, b.intVal(int64(id))))
			}
		}
	} else {
		if _, ok := enc.Sys.Cases[sts.TerminatedID]; ok {
			opts = append(opts, b.eq(s, b.intVal(sts.TerminatedID)))
		}
		if enc.start == sts.InitID {
			// A semantic delta of the cold start leaves later frames on
			// the init sentinel.
			opts = append(opts, b.eq(s, b.intVal(sts.InitID)))
		}
	}
	n := int64(len(enc.Sys.Locations))
	opts = append(opts, b.and(b.arith(">=", s, b.intVal(0)), b.arith("<", s, b.intVal(n))))
	enc.AddGroup(&Group{ID: fmt.Sprintf("domain.frame.%04d.state", i), Stage: Kernel, Role: "domain_rule", Frame: i, Formula: b.or(opts...)})
}

// AddGroup asserts g behind a fresh activation literal. In the lean shape
// it only records g: the engine asserts the groups of the stages a check
// needs into the solver of that check.
func (enc *Encoding) AddGroup(g *Group) *Group {
	b := &enc.b
	if enc.lean != nil {
		if b.ok(g.Formula) {
			enc.Groups = append(enc.Groups, g)
		}
		return g
	}
	g.Lit = b.boolConst("act!" + g.ID)
	if b.ok(g.Lit, g.Formula) {
		if err := enc.Solver.Assert(b.implies(g.Lit, g.Formula)); err != nil {
			b.fail(fmt.Errorf("smt: asserting %s: %w", g.ID, err))
		}
	}
	enc.Groups = append(enc.Groups, g)
	return g
}

// Err is the first error any construction hit.
func (enc *Encoding) Err() error { return enc.b.err }

// VarScope resolves variable names to the symbols of frame i.
func (enc *Encoding) VarScope(i int) func(string) *z3.Term {
	return func(name string) *z3.Term {
		if k := enc.Sys.VarIndex(name); k >= 0 {
			return enc.Vars[i][k]
		}
		return nil
	}
}

// Extend unrolls one more step: the step symbols of step N, frame N+1, and
// the transition relation T_N as one group.
func (enc *Encoding) Extend() error {
	if enc.lean != nil {
		return enc.extendLean()
	}
	i := enc.Bound()
	b := &enc.b
	sys := enc.Sys
	evs := make([]*z3.Term, len(sys.Events))
	for k, e := range sys.Events {
		evs[k] = b.boolConst(fmt.Sprintf("E_%d_event_%d_%s", i, k, e.Name))
	}
	enc.Events = append(enc.Events, evs)
	enc.Delta = append(enc.Delta, b.boolConst(fmt.Sprintf("Delta_%d", i)))
	enc.Gamma = append(enc.Gamma, b.boolConst(fmt.Sprintf("Gamma_%d", i)))
	enc.symbols += len(evs) + 2
	enc.constants += len(evs) + 2
	var sels []Selector
	for _, src := range sys.StepSources(i, enc.start) {
		cases := sys.Cases[src]
		for k := range cases {
			if cases[k].Kind == sts.Error {
				continue
			}
			// By index: two cases' labels can read alike (a state named
			// "a::transition::b"), and one name would be one selector.
			t := b.boolConst(fmt.Sprintf("C_%d_%d_%d_%s", i, src, k, cases[k].Label))
			sels = append(sels, Selector{Source: src, Index: k, Case: &cases[k], Term: t})
		}
	}
	enc.Sels = append(enc.Sels, sels)
	enc.symbols += len(sels)
	enc.constants += len(sels)
	enc.addFrame()
	units, excluded, raises, err := enc.stepUnits(i)
	if err != nil {
		return err
	}
	var side []*z3.Term
	if sys.OneEventPerStep && len(evs) > 0 {
		side = append(side, b.exactlyOne(evs))
	}
	enc.addRaising(raises, append(side, enc.axioms...))
	// Side conditions of fresh symbols (sqrt results) belong to the step
	// that introduced them.
	units = append(units, enc.takeAxioms()...)
	g := &Group{ID: fmt.Sprintf("transition.step.%04d", i), Stage: Kernel, Role: "transition_rule", Frame: i, Formula: b.and(units...), Units: units, Excluded: excluded}
	enc.AddGroup(g)
	return b.err
}

// stepUnits builds T_i: one implication per case, exactly one selector,
// and the event discipline. An Error case has no selector: its antecedent
// is excluded outright (error steps are invisible, docs/fcstm.md).
func (enc *Encoding) stepUnits(i int) ([]*z3.Term, []*sts.Case, []RaiseCase, error) {
	b := &enc.b
	sys := enc.Sys
	var units, exclusions []*z3.Term
	var excluded []*sts.Case
	var raises []RaiseCase
	var selTerms []*z3.Term
	sels := enc.Sels[i]
	next := 0 // the index in enc.Sels[i] of sels[0]
	st := &stepSyms{state: enc.States[i], next: enc.States[i+1], pre: enc.Vars[i], post: enc.Vars[i+1], events: enc.Events[i], delta: enc.Delta[i], gamma: enc.Gamma[i]}
	for _, src := range sys.StepSources(i, enc.start) {
		cases := sys.Cases[src]
		ante := make([]*z3.Term, 0, len(cases)) // per case of the source, for priorities
		for k := range cases {
			c := &cases[k]
			a, body, snaps, err := enc.caseBody(st, c, ante)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("smt: case %s: %w", c.Label, err)
			}
			ante = append(ante, a)
			if c.Kind == sts.Error {
				exclusions = append(exclusions, b.not(a))
				excluded = append(excluded, c)
				raises = append(raises, RaiseCase{Case: c, Ante: a})
				continue
			}
			sel := sels[0]
			sels = sels[1:]
			enc.Sels[i][next].Snapshots = snaps
			next++
			selTerms = append(selTerms, sel.Term)
			units = append(units, b.implies(sel.Term, body))
		}
	}
	// The exclusions follow the per-selector units, so that unit i stays
	// the requirement of selector i (explanations bind units to cases).
	units = append(units, exclusions...)
	units = append(units, b.exactlyOne(selTerms))
	if sys.OneEventPerStep && len(enc.Events[i]) > 0 {
		units = append(units, b.exactlyOne(enc.Events[i]))
	}
	return units, excluded, raises, b.err
}

// caseEnv is the symbolic state of a case part-way through its effects.
type caseEnv struct {
	enc   *Encoding
	cur   []*z3.Term
	temps map[string]*z3.Term
}

func (ce *caseEnv) scope() Scope {
	return Scope{Var: func(name string) *z3.Term {
		if k := ce.enc.Sys.VarIndex(name); k >= 0 {
			return ce.cur[k]
		}
		return ce.temps[name]
	}}
}

// stepSyms are the symbols one step reads and writes. A nil state leaves
// the locations out (the caller's graph node is the source, its edge the
// target); nil delta and gamma leave the flags unconstrained.
// from and to, when set, say "the step starts at" and "ends at" a location
// instead (the lean shape's coded locations); nil events leave the event
// literals out (the lean shape's projected events).
type stepSyms struct {
	state, next, delta, gamma *z3.Term
	from, to                  func(id int) *z3.Term
	pre, post, events         []*z3.Term
}

// caseBody returns the antecedent of case c at step st (A_{i,k}: location,
// guard, conditions at their anchors, events, priorities over the earlier
// antecedents ante) and what selecting it implies: the antecedent, the
// definedness of the effects and the next frame, as one flat conjunction;
// and the variable values each call record of c sees.
func (enc *Encoding) caseBody(st *stepSyms, c *sts.Case, ante []*z3.Term) (a, body *z3.Term, snaps [][]*z3.Term, err error) {
	if enc.Cancelled != nil {
		if err := enc.Cancelled(); err != nil {
			return nil, nil, nil, err
		}
	}
	b := &enc.b
	ce := &caseEnv{enc: enc, cur: append([]*z3.Term(nil), st.pre...), temps: map[string]*z3.Term{}}
	var conds []*z3.Term
	switch {
	case st.from != nil:
		conds = append(conds, st.from(c.Source))
	case st.state != nil:
		conds = append(conds, b.eq(st.state, b.intVal(int64(c.Source))))
	}
	if c.Guard != nil {
		g, err := enc.Lower(c.Guard, ce.scope())
		if err != nil {
			return nil, nil, nil, err
		}
		conds = append(conds, b.and(g.Def, g.T))
	}
	for _, lit := range c.Events {
		if st.events == nil {
			// The lean shape's projected events: the case's own event is
			// implied by its selection.
			continue
		}
		e := st.events[lit.Event]
		if !lit.Present {
			e = b.not(e)
		}
		conds = append(conds, e)
	}
	for _, p := range c.Priority {
		if p < len(ante) {
			conds = append(conds, b.not(ante[p]))
		}
	}
	var parts []*z3.Term
	next := 0 // the next condition to read
	readConds := func(after int) error {
		for ; next < len(c.Conds) && c.Conds[next].After <= after; next++ {
			t, err := enc.cond(&c.Conds[next], ce)
			if err != nil {
				return err
			}
			conds = append(conds, t)
		}
		return nil
	}
	snaps = make([][]*z3.Term, len(c.Calls))
	snapAt := func(k int) {
		for j := range c.Calls {
			if c.Calls[j].After == k {
				snaps[j] = slices.Clone(ce.cur)
			}
		}
	}
	// Effects run in order over the values assigned so far.
	for k, eff := range c.Effects {
		snapAt(k)
		if err := readConds(k); err != nil {
			return nil, nil, nil, err
		}
		v, err := enc.Lower(eff.Value, ce.scope())
		if err != nil {
			return nil, nil, nil, err
		}
		parts = append(parts, v.Def)
		if eff.Temp != "" {
			if eff.Bind {
				v.T = enc.bind(v.T)
			}
			ce.temps[eff.Temp] = v.T
			continue
		}
		if enc.Sys.Vars[eff.Var].Sort == sts.Real {
			v.T = b.toReal(v.T)
		}
		ce.cur[eff.Var] = v.T
	}
	snapAt(len(c.Effects))
	if err := readConds(len(c.Effects)); err != nil {
		return nil, nil, nil, err
	}
	if next < len(c.Conds) {
		return nil, nil, nil, fmt.Errorf("condition %d is anchored after effect %d of %d", next, c.Conds[next].After, len(c.Effects))
	}
	if c.Kind == sts.Error {
		// Never selected: only its antecedent matters.
		return b.and(conds...), b.False(), nil, b.err
	}
	for k := range ce.cur {
		if enc.Sys.Vars[k].Sort == sts.Int && ce.cur[k].SortKind() == z3.SortReal {
			return nil, nil, nil, fmt.Errorf("variable %s ends the case with a real value", enc.Sys.Vars[k].Name)
		}
		parts = append(parts, b.eq(st.post[k], ce.cur[k]))
	}
	switch {
	case st.to != nil:
		parts = append(parts, st.to(c.Target))
	case st.state != nil:
		parts = append(parts, b.eq(st.next, b.intVal(int64(c.Target))))
	}
	if st.delta != nil {
		parts = append(parts, b.iff(st.delta, b.boolVal(c.Delta)), b.iff(st.gamma, b.boolVal(c.Gamma)))
	}
	return b.and(conds...), b.and(append(conds, parts...)...), snaps, b.err
}

// cond lowers one anchored condition in the case environment.
func (enc *Encoding) cond(c *sts.Cond, ce *caseEnv) (*z3.Term, error) {
	b := &enc.b
	v, err := enc.Lower(c.Expr, ce.scope())
	if err != nil {
		return nil, err
	}
	switch c.Mode {
	case sts.Holds:
		return b.and(v.Def, v.T), nil
	case sts.Fails:
		return b.and(v.Def, b.not(v.T)), nil
	case sts.Defined:
		return v.Def, nil
	}
	return b.not(v.Def), nil
}

// Unroll extends the encoding to n steps.
func (enc *Encoding) Unroll(n int) error {
	for enc.Bound() < n {
		if err := enc.Extend(); err != nil {
			return err
		}
	}
	return nil
}

// Lits returns the activation literals of the groups whose stage is in
// stages.
func (enc *Encoding) Lits(stages ...Stage) []*z3.Term {
	var out []*z3.Term
	for _, g := range enc.Groups {
		for _, s := range stages {
			if g.Stage == s {
				out = append(out, g.Lit)
				break
			}
		}
	}
	return out
}

// InitValue lowers a variable's declaration initialiser.
func (enc *Encoding) InitValue(k int) (Value, error) {
	v := enc.Sys.Vars[k]
	if v.Init == nil {
		return Value{}, fmt.Errorf("smt: variable %q has no initialiser", v.Name)
	}
	return enc.Lower(v.Init, Scope{})
}

// B exposes formula construction to engines (objectives, assumptions).
func (enc *Encoding) B() *Builder { return &Builder{b: &enc.b} }

// Builder is the exported face of the sticky-error term builder.
type Builder struct{ b *builder }

// And, Or, Not, Implies, Eq, Int, Bool build formulas; nil on a prior error.
func (x *Builder) And(ts ...*z3.Term) *z3.Term    { return x.b.and(ts...) }
func (x *Builder) Or(ts ...*z3.Term) *z3.Term     { return x.b.or(ts...) }
func (x *Builder) Not(t *z3.Term) *z3.Term        { return x.b.not(t) }
func (x *Builder) Implies(a, c *z3.Term) *z3.Term { return x.b.implies(a, c) }
func (x *Builder) Eq(a, c *z3.Term) *z3.Term      { return x.b.eq(a, c) }
func (x *Builder) Int(v int64) *z3.Term           { return x.b.intVal(v) }
func (x *Builder) Bool(v bool) *z3.Term           { return x.b.boolVal(v) }
func (x *Builder) AtMostOne(ts []*z3.Term) *z3.Term {
	return x.b.atMostOne(ts)
}
func (x *Builder) Fresh(name string) *z3.Term { return x.b.boolConst(name) }
func (x *Builder) Err() error                 { return x.b.err }

// TakeAxioms returns, and forgets, the side conditions of the fresh
// symbols made by Lower since the last call (or since the last step), so
// the caller can put them in the group of the formula that needed them.
func (enc *Encoding) TakeAxioms() []*z3.Term { return enc.takeAxioms() }

// ResetBeyondLIA sets what BeyondLIA reports to v. A caller checking
// several objectives over one unrolling restores the unrolling's own value
// before building each, so that a non-linear term of one objective does not
// change how the others are checked.
func (enc *Encoding) ResetBeyondLIA(v bool) { enc.b.beyondLIA = v }
