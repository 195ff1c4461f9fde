package bmc

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// A check with a fair clause (docs/queries.md#fairness) looks for a fair
// lasso: frames 0..N where frame N equals an earlier frame l (state and
// every variable), so that the run repeats steps l..N-1 forever, and where
// each weakly fair event is taken on one of those steps or disabled at one
// of their source frames. Such a run is infinite, fair, and violates the
// property at a position it reaches; a run without a loop back proves
// nothing under fairness, so an UNSAT check is never "satisfied".

// noFairLasso is the incomplete_reason of a fair check that found no lasso.
const noFairLasso = "no fair lasso counterexample within the bound: a bounded search cannot show that a fair liveness property holds"

// fairObjective builds the objective of a check with a fair clause: the
// disjunction over the loop starts l of lasso_l ∧ violation_l. p.loops
// keeps each disjunct, for the decoder to find the loop start.
func (p *problem) fairObjective() (*z3.Term, error) {
	b := p.b
	n := p.n
	c := &p.q.Check
	var body, tr, rs framePred
	var err error
	switch c.Kind {
	case query.MustReach:
		body, err = p.predicate(c.Body, n)
	case query.Response:
		if tr, err = p.predicate(c.Trigger, n); err == nil {
			rs, err = p.predicate(c.Target, n)
		}
	default:
		return nil, fmt.Errorf("bmc: a fair clause on a %s check", c.Kind)
	}
	if err != nil {
		return nil, err
	}
	enabled, taken, err := p.fairEvents()
	if err != nil {
		return nil, err
	}
	// The run visits frames 0..N-1 (frame N is frame l again), so a
	// must_reach violation is the same for every loop start.
	var never *z3.Term
	if c.Kind == query.MustReach {
		var miss []*z3.Term
		for i := 0; i < n; i++ {
			miss = append(miss, b.Not(p.good(body, i)))
		}
		never = b.And(miss...)
	}
	// The definitions of fresh symbols (sqrt results, bound temporaries)
	// the event terms read hold outright: enabled is also read negated.
	side := p.enc.TakeAxioms()
	fairFrom := fairSuffixes(b, enabled, taken, n)
	p.loops = p.loops[:0]
	var opts []*z3.Term
	for l := 0; l < n; l++ {
		if err := p.checkCancelled(); err != nil {
			return nil, err
		}
		viol := never
		if c.Kind == query.Response {
			viol = p.lassoResponse(tr, rs, l)
		}
		loop := b.And(p.sameFrame(n, l), fairFrom[l], viol)
		p.loops = append(p.loops, loop)
		opts = append(opts, loop)
	}
	return b.And(append(side, b.Or(opts...))...), b.Err()
}

// sameFrame is "frame i and frame j are the same runtime".
func (p *problem) sameFrame(i, j int) *z3.Term {
	b := p.b
	eq := []*z3.Term{b.Eq(p.enc.States[i], p.enc.States[j])}
	for k := range p.sys.Vars {
		eq = append(eq, b.Eq(p.enc.Vars[i][k], p.enc.Vars[j][k]))
	}
	return b.And(eq...)
}

// fairSuffixes returns, per loop start l, that the loop l..n-1 is fair:
// every fair event is taken on one of its steps or disabled at one of its
// frames (so it is not continuously enabled). Each event's condition at l
// extends the one at l+1, so the terms are shared and linear in n.
func fairSuffixes(b *smt.Builder, enabled, taken [][]*z3.Term, n int) []*z3.Term {
	ok := make([][]*z3.Term, len(enabled)) // ok[e][l]
	for e := range enabled {
		ok[e] = make([]*z3.Term, n+1)
		ok[e][n] = b.Bool(false)
		for l := n - 1; l >= 0; l-- {
			ok[e][l] = b.Or(taken[e][l], b.Not(enabled[e][l]), ok[e][l+1])
		}
	}
	out := make([]*z3.Term, n)
	for l := range out {
		var all []*z3.Term
		for e := range ok {
			all = append(all, ok[e][l])
		}
		out[l] = b.And(all...)
	}
	return out
}

// lassoResponse is the response violation on the lasso with loop start l:
// a trigger undefined at some position, or defined and true with no
// target in the W positions after it. Positions past N-1 are loop frames
// again, so triggers at frames 0..N-1 are all there are, and a window is
// followed round the loop (at most N-l further positions are new).
func (p *problem) lassoResponse(tr, rs framePred, l int) *z3.Term {
	b := p.b
	n, w := p.n, p.q.Check.Window
	frame := func(j int) int {
		if j < n {
			return j
		}
		return l + (j-l)%(n-l)
	}
	var bad []*z3.Term
	for i := 0; i < n; i++ {
		bad = append(bad, b.Not(tr.d[i]))
		var hits []*z3.Term
		for k := 1; k <= min(w, n-i+n-l); k++ {
			hits = append(hits, p.good(rs, frame(i+k)))
		}
		bad = append(bad, b.And(p.good(tr, i), b.Not(b.Or(hits...))))
	}
	return b.Or(bad...)
}

// fairEvents returns, per fair event of the clause, whether it is enabled
// at frames 0..N-1 (one of its transitions from the frame's state has a
// guard that holds there, as the runtime and docs/liveness.md say) and
// whether it is taken at steps 0..N-1 (the selected case consumes it).
func (p *problem) fairEvents() (enabled, taken [][]*z3.Term, err error) {
	if !p.sys.OneEventPerStep {
		return p.freeFairEvents()
	}
	b := p.b
	n := p.n
	for _, name := range fairNames(p.q, p.sys) {
		ev := p.sys.EventIndex(name)
		var en, tk []*z3.Term
		for j := 0; j < n; j++ {
			var can, did []*z3.Term
			for _, src := range p.sys.Sources() {
				for _, c := range p.sys.Cases[src] {
					if c.Kind != sts.Transition || !presentIn(c.Events, ev) {
						continue
					}
					g := b.Bool(true)
					if c.Guard != nil {
						v, err := p.enc.Lower(c.Guard, smt.Scope{Var: p.enc.VarScope(j)})
						if err != nil {
							return nil, nil, err
						}
						g = b.And(v.Def, v.T)
					}
					can = append(can, b.And(p.enc.At(j, src), g))
				}
			}
			for _, sel := range p.enc.Sels[j] {
				if presentIn(sel.Case.Events, ev) {
					did = append(did, sel.Term)
				}
			}
			en, tk = append(en, b.Or(can...)), append(tk, b.Or(did...))
		}
		enabled, taken = append(enabled, en), append(taken, tk)
	}
	return enabled, taken, b.Err()
}

// freeFairEvents is fairEvents for a system whose events are free inputs
// (FCSTM), as verify's ltl check reads them (docs/queries.md#fairness):
// an event is enabled at a frame when some input there has the cycle
// test it present, and taken at a step when it is present and the
// step's cycle tests it. Side conditions of fresh symbols join the
// objective (fairObjective takes them).
func (p *problem) freeFairEvents() (enabled, taken [][]*z3.Term, err error) {
	if p.sys.Tests == nil {
		return nil, nil, fmt.Errorf("bmc: a fair clause on a system with free inputs and no event tests")
	}
	b := p.b
	names := fairNames(p.q, p.sys)
	enabled, taken = make([][]*z3.Term, len(names)), make([][]*z3.Term, len(names))
	p.fairReads = map[[2]int]*z3.Term{}
	for j := 0; j < p.n; j++ {
		if err := p.checkCancelled(); err != nil {
			return nil, nil, err
		}
		tested, readable, err := p.enc.EventReads(j)
		if err != nil {
			return nil, nil, err
		}
		for f, name := range names {
			ev := p.sys.EventIndex(name)
			enabled[f] = append(enabled[f], readable[ev])
			took := b.And(p.enc.Events[j][ev], tested[ev])
			taken[f] = append(taken[f], took)
			p.fairReads[[2]int{j, ev}] = took
		}
	}
	return enabled, taken, b.Err()
}

func presentIn(lits []sts.EventLit, ev int) bool {
	for _, l := range lits {
		if l.Event == ev && l.Present {
			return true
		}
	}
	return false
}

// loopStart is the loop start of the solver's current model of a fair
// check: the first l whose lasso disjunct holds.
func (s *session) loopStart() (*int, error) {
	m, err := s.solver.Model()
	if err != nil {
		return nil, fmt.Errorf("bmc: reading the model: %w", err)
	}
	d := decoder{p: s.p, m: m}
	for l, t := range s.p.loops {
		hit, err := d.bool(t)
		if err != nil {
			return nil, fmt.Errorf("bmc: evaluating the loop at frame %d: %w", l, err)
		}
		if hit {
			// The decoded trace must show the loop closing, or the
			// encoding and the decoder disagree: never report it.
			last, first := s.p.n, l
			for k := range s.p.sys.Vars {
				a, _ := d.value(s.p.enc.Vars[last][k], s.p.sys.Vars[k].Sort)
				b, _ := d.value(s.p.enc.Vars[first][k], s.p.sys.Vars[k].Sort)
				if fmt.Sprint(a) != fmt.Sprint(b) {
					return nil, fmt.Errorf("bmc: the lasso of a fair check does not close: %s differs at frames %d and %d", s.p.sys.Vars[k].Name, first, last)
				}
			}
			return &l, nil
		}
	}
	return nil, fmt.Errorf("bmc: a model of a fair check with no lasso")
}

// fairNames lists the events of q's fair clause (every event of sys for
// `fair *`), nil without one. A model with no events has a non-nil empty
// list: the check is still a fair one (a lasso), trivially fair.
func fairNames(q *query.Query, sys *sts.System) []string {
	if q.Check.FairAll {
		out := []string{}
		for _, e := range sys.Events {
			out = append(out, e.Name)
		}
		return out
	}
	var out []string
	for _, n := range q.Check.Fair {
		out = append(out, n.Name)
	}
	return out
}
