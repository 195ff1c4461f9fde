package smt

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// leanShape is the frame shape of NewLeanEncoding (docs/queries.md, "The
// encoding, and what symbol_count counts"): close to what a person writes
// when unrolling a machine by hand.
//
//   - The location of a frame is a binary code over a few Boolean
//     constants; "frame i is at s" is a conjunction of literals, so two
//     locations exclude each other by construction and no domain guard is
//     needed (every frame is the source of a case or the target of one).
//   - A step is the disjunction of its cases, each its antecedent together
//     with the next frame it produces. There are no selector constants and
//     no cardinality constraints: the selection of case k is a term (the
//     first of the source's overlapping cases whose disjunct holds), and
//     so are Delta, Gamma and, when nothing reads them, the events.
//   - Groups are recorded, not asserted: the engine asserts the stages a
//     check needs into that check's solver, without activation literals.
type leanShape struct {
	code map[int]int  // location or sentinel id -> its code
	ids  []int        // code -> id
	bits [][]*z3.Term // per frame, the location code
	ats  [][]*z3.Term // per frame and code, "frame i is at ids[code]"
	// projectEvents: one event per step and nothing but the cases reads
	// the events, so the event of a step is the one its case consumes (a
	// stuck step's event is unobservable) and gets no constant.
	projectEvents bool
}

// NewLeanEncoding creates the frame-0 symbols of sys in the lean shape.
// eventsRead says that something besides the cases reads the step events
// (an event assumption or atom); otherwise a system with one event per
// step gets no event constants. The encoding has no solver: its groups are
// recorded for the engine to assert.
func NewLeanEncoding(ctx *z3.Context, sys *sts.System, eventsRead bool) (*Encoding, error) {
	ls := &leanShape{code: map[int]int{}}
	for _, id := range []int{sts.InitID, sts.TerminatedID} {
		if _, ok := sys.Cases[id]; ok || sys.Start == id {
			ls.add(id)
		}
	}
	for i := range sys.Locations {
		ls.add(i)
	}
	ls.projectEvents = sys.OneEventPerStep && !eventsRead && projectable(sys)
	enc := &Encoding{b: builder{ctx: ctx}, Sys: sys, start: sys.Start, lean: ls}
	enc.addFrame()
	if enc.b.err != nil {
		return nil, enc.b.err
	}
	return enc, nil
}

// projectable: every case requires at most one event, present. Only then
// does dropping the events keep exactly the runs of the full encoding.
func projectable(sys *sts.System) bool {
	for _, cs := range sys.Cases {
		for k := range cs {
			if len(cs[k].Events) > 1 || (len(cs[k].Events) == 1 && !cs[k].Events[0].Present) {
				return false
			}
		}
	}
	return true
}

func (ls *leanShape) add(id int) {
	if _, ok := ls.code[id]; !ok {
		ls.code[id] = len(ls.ids)
		ls.ids = append(ls.ids, id)
	}
}

// width is the number of bits that code n values.
func width(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// frame allocates the location bits of frame i and returns F_i_state as a
// term over them (the decoder and the atoms read it as an integer).
func (ls *leanShape) frame(b *builder, i int) *z3.Term {
	w := width(len(ls.ids))
	bs := make([]*z3.Term, w)
	for k := range bs {
		bs[k] = b.boolConst(fmt.Sprintf("F_%d_state_%d", i, k))
	}
	ls.bits = append(ls.bits, bs)
	ats := make([]*z3.Term, len(ls.ids))
	if w > 0 {
		neg := make([]*z3.Term, w)
		for k, x := range bs {
			neg[k] = b.not(x)
		}
		lits := make([]*z3.Term, w)
		for c := range ats {
			for k := range bs {
				lits[k] = bs[k]
				if c>>k&1 == 0 {
					lits[k] = neg[k]
				}
			}
			ats[c] = b.and(lits...)
		}
	} else {
		ats[0] = b.True()
	}
	ls.ats = append(ls.ats, ats)
	last := len(ls.ids) - 1
	es := make([]coded, last)
	for c := range es {
		es[c] = coded{c, b.intVal(int64(ls.ids[c]))}
	}
	return ls.choose(b, i, es, b.intVal(int64(ls.ids[last])))
}

// chainLimit is the longest if-then-else chain choose builds. Z3 walks
// terms recursively, so a chain over every location of a large machine
// overflowed the stack of the thread that checks it (a ring of 150,000
// states crashed the program, issue 38); up to chainLimit entries the
// chain is what a hand-written unrolling has, and the encodings of
// machines that small are unchanged.
const chainLimit = 64

// coded is a term chosen when frame i holds a location code.
type coded struct {
	code int
	t    *z3.Term
}

// choose is the term es[k].t when frame i holds the code es[k].code and
// dflt when it holds none of them. The codes differ, so the locations
// exclude each other and the order of the chain does not matter: up to
// chainLimit entries it is one chain in the given order; beyond, the
// entries, sorted by code, split on the highest bit in which their codes
// differ, so the term's depth grows with the logarithm of len(es).
func (ls *leanShape) choose(b *builder, i int, es []coded, dflt *z3.Term) *z3.Term {
	if len(es) <= chainLimit {
		t := dflt
		for k := len(es) - 1; k >= 0; k-- {
			t = b.ite(ls.ats[i][es[k].code], es[k].t, t)
		}
		return t
	}
	if !slices.IsSortedFunc(es, byCode) {
		es = slices.SortedFunc(slices.Values(es), byCode)
	}
	// Every entry's code agrees with the others above bit k; the frame's
	// bit k tells which half can hold its code (a code of neither half
	// gets dflt from either).
	k := bits.Len(uint(es[0].code^es[len(es)-1].code)) - 1
	m, _ := slices.BinarySearchFunc(es, 1<<k, func(e coded, bit int) int { return e.code&bit - bit })
	return b.ite(ls.bits[i][k], ls.choose(b, i, es[m:], dflt), ls.choose(b, i, es[:m], dflt))
}

func byCode(x, y coded) int { return x.code - y.code }

// at is "frame i is at id": its code's literals (false for an id outside
// the domain).
func (ls *leanShape) at(b *builder, i, id int) *z3.Term {
	c, ok := ls.code[id]
	if !ok {
		return b.False()
	}
	return ls.ats[i][c]
}

// codeIs is the conjunction of literals saying that bs holds code c.
func codeIs(b *builder, bs []*z3.Term, c int) *z3.Term {
	lits := make([]*z3.Term, len(bs))
	for k, x := range bs {
		lits[k] = x
		if c>>k&1 == 0 {
			lits[k] = b.not(x)
		}
	}
	return b.and(lits...)
}

// extendLean unrolls one more step in the lean shape.
func (enc *Encoding) extendLean() error {
	i := enc.Bound()
	b := &enc.b
	sys := enc.Sys
	ls := enc.lean
	units := enc.leanEvents(i)
	evUnits := slices.Clone(units)
	enc.symbols += len(sys.Events) + 2
	enc.addFrame()
	var cases []Selector
	st := &stepSyms{
		from: func(id int) *z3.Term { return ls.at(b, i, id) },
		to:   func(id int) *z3.Term { return ls.at(b, i+1, id) },
		pre:  enc.Vars[i], post: enc.Vars[i+1],
	}
	if !ls.projectEvents {
		st.events = enc.Events[i]
	}
	var branches []coded // per source: its cases
	for _, src := range sys.StepSources(i, enc.start) {
		var disjuncts []*z3.Term // the source's cases that can be taken
		cs := sys.Cases[src]
		ante := make([]*z3.Term, 0, len(cs))
		var dis []*z3.Term // per case of the source; nil for an error case
		for k := range cs {
			c := &cs[k]
			a, body, snaps, err := enc.caseBody(st, c, ante)
			if err != nil {
				return fmt.Errorf("smt: case %s: %w", c.Label, err)
			}
			ante = append(ante, a)
			if c.Kind == sts.Error {
				units = append(units, b.not(a))
				dis = append(dis, nil)
				continue
			}
			dis = append(dis, body)
			disjuncts = append(disjuncts, body)
			// Selected: this disjunct holds and no earlier case that could
			// hold at the same time does (several true disjuncts are a
			// nondeterministic step; the first is as good a witness).
			sel := []*z3.Term{body}
			for j := 0; j < k; j++ {
				if dis[j] != nil && !exclusive(sys, cs, j, k, ls.projectEvents) {
					sel = append(sel, b.not(dis[j]))
				}
			}
			t := b.and(sel...)
			cases = append(cases, Selector{Source: src, Index: k, Case: c, Term: t, Snapshots: snaps})
		}
		// A source without a code is no frame's location (at says false).
		if c, ok := ls.code[src]; ok {
			branches = append(branches, coded{c, b.or(disjuncts...)})
		}
	}
	enc.Sels = append(enc.Sels, cases)
	enc.symbols += len(cases)
	var delta, gamma []*z3.Term
	for _, s := range cases {
		if s.Case.Delta {
			delta = append(delta, s.Term)
		}
		if s.Case.Gamma {
			gamma = append(gamma, s.Term)
		}
	}
	enc.Delta = append(enc.Delta, b.or(delta...))
	enc.Gamma = append(enc.Gamma, b.or(gamma...))
	if ls.projectEvents {
		evs := make([]*z3.Term, len(sys.Events))
		for ev := range evs {
			var on []*z3.Term
			for _, s := range cases {
				if len(s.Case.Events) == 1 && s.Case.Events[0].Event == ev {
					on = append(on, s.Term)
				}
			}
			evs[ev] = b.or(on...)
		}
		enc.Events[i] = evs
	}
	// The step as one if-then-else per source state (a tree of them for
	// many states), as a hand-written unrolling has it: the states exclude
	// each other, so this is the disjunction of the cases, with the case
	// split on the state first.
	units = append(units, ls.choose(b, i, branches, b.False()))
	if err := enc.leanRaises(i, st, evUnits); err != nil {
		return err
	}
	units = append(units, enc.takeAxioms()...)
	enc.AddGroup(&Group{ID: fmt.Sprintf("transition.step.%04d", i), Stage: Kernel, Role: "transition_rule", Frame: i, Formula: b.and(units...)})
	return b.err
}

// leanEvents makes the event terms of step i and returns the constraints
// they need: free Booleans for a system without one event per step; for
// one event per step either nothing yet (projected: filled in from the
// selection) or a binary event code, whose unused codes are excluded.
func (enc *Encoding) leanEvents(i int) []*z3.Term {
	b := &enc.b
	sys := enc.Sys
	n := len(sys.Events)
	evs := make([]*z3.Term, n)
	enc.Events = append(enc.Events, evs)
	switch {
	case !sys.OneEventPerStep:
		for k, e := range sys.Events {
			evs[k] = b.boolConst(fmt.Sprintf("E_%d_event_%d_%s", i, k, e.Name))
		}
		enc.constants += n
		return nil
	case enc.lean.projectEvents || n == 0:
		return nil
	}
	w := width(n)
	bs := make([]*z3.Term, w)
	for k := range bs {
		bs[k] = b.boolConst(fmt.Sprintf("E_%d_event_%d", i, k))
	}
	enc.constants += w
	for k := range evs {
		evs[k] = codeIs(b, bs, k)
	}
	if n == 1<<w {
		return nil
	}
	return []*z3.Term{b.or(evs...)}
}

// exclusive reports that cases j and k of one source can never hold
// together, so the later one's selection need not exclude the earlier:
// one lists the other as a priority, they need different events of a
// system with one event per step (unless the events are projected out),
// or one's guard is the negation of a disjunction that contains the
// other's guard (a JSON stutter).
func exclusive(sys *sts.System, cs []sts.Case, j, k int, projected bool) bool {
	a, c := &cs[j], &cs[k]
	for _, p := range c.Priority {
		if p == j {
			return true
		}
	}
	if sys.OneEventPerStep && !projected && len(a.Events) == 1 && len(c.Events) == 1 && a.Events[0].Present && c.Events[0].Present && a.Events[0].Event != c.Events[0].Event {
		return true
	}
	return negates(a.Guard, c.Guard) || negates(c.Guard, a.Guard)
}

// negates: g is not(h1 || h2 || ...) with h among the hi (the same
// expression), or with a literal true among them.
func negates(g, h expr.Expr) bool {
	u, ok := g.(*expr.Unary)
	if !ok || u.Op != expr.Not {
		return false
	}
	var found bool
	var walk func(e expr.Expr)
	walk = func(e expr.Expr) {
		if bin, ok := e.(*expr.Binary); ok && bin.Op == expr.Lor {
			walk(bin.X)
			walk(bin.Y)
			return
		}
		if lit, ok := e.(*expr.BoolLit); ok && lit.Value {
			found = true
		}
		if h != nil && e == h {
			found = true
		}
	}
	walk(u.X)
	return found
}
