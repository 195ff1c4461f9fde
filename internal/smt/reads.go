package smt

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// EventReads returns, per event of the system, two terms about step i of
// a system whose events are free inputs (System.Tests, docs/queries.md
// "Fairness"): tested, that the step's cycle tests the event (on the
// step's input), and readable, that some input at frame i would make the
// cycle test the event with it present. The event is taken at step i
// when it is present and tested, and enabled at frame i when readable.
//
// Readable quantifies over the inputs, yet needs no quantifier: every
// event literal of a source with tests requires an event present, so a
// test is reached on some input with its event present exactly when it
// is reached on the smallest such input, its path's events and the
// event itself. Side conditions of fresh symbols (sqrt results) are left
// for TakeAxioms.
func (enc *Encoding) EventReads(i int) (tested, readable []*z3.Term, err error) {
	if i < 0 || i >= enc.Bound() {
		return nil, nil, fmt.Errorf("smt: event reads of step %d, unrolled %d", i, enc.Bound())
	}
	b := &enc.b
	sys := enc.Sys
	n := len(sys.Events)
	tk, rd := make([][]*z3.Term, n), make([][]*z3.Term, n)
	for _, src := range sys.StepSources(i, enc.start) {
		tests := sys.Tests[src]
		if len(tests) == 0 {
			continue
		}
		cases := sys.Cases[src]
		for k := range cases {
			for _, lit := range cases[k].Events {
				if !lit.Present {
					return nil, nil, fmt.Errorf("smt: case %s requires an event absent, and its source tests events", cases[k].Label)
				}
			}
		}
		on := enc.readSyms(i, enc.Events[i])
		ante, err := enc.antecedents(on, cases)
		if err != nil {
			return nil, nil, err
		}
		// The antecedents under each smallest input, shared by the tests
		// that need the same one.
		least := map[string][]*z3.Term{}
		for t := range tests {
			te := &tests[t]
			reached, err := enc.reached(on, te, ante)
			if err != nil {
				return nil, nil, err
			}
			tk[te.Event] = append(tk[te.Event], reached)
			evs, key := leastInput(b, n, te)
			if least[key] == nil {
				if least[key], err = enc.antecedents(enc.readSyms(i, evs), cases); err != nil {
					return nil, nil, err
				}
			}
			can, err := enc.reached(enc.readSyms(i, evs), te, least[key])
			if err != nil {
				return nil, nil, err
			}
			rd[te.Event] = append(rd[te.Event], can)
		}
	}
	for e := range n {
		tested = append(tested, b.or(tk[e]...))
		readable = append(readable, b.or(rd[e]...))
	}
	return tested, readable, b.err
}

// readSyms are the symbols a source's antecedents read at step i, with
// the given event terms: the location of frame i and its variables.
func (enc *Encoding) readSyms(i int, events []*z3.Term) *stepSyms {
	st := &stepSyms{pre: enc.Vars[i], post: enc.Vars[i+1], events: events}
	if ls := enc.lean; ls != nil {
		st.from = func(id int) *z3.Term { return ls.at(&enc.b, i, id) }
	} else {
		st.state = enc.States[i]
	}
	return st
}

// antecedents returns the antecedent of each case, priorities included,
// as the step relation has it.
func (enc *Encoding) antecedents(st *stepSyms, cases []sts.Case) ([]*z3.Term, error) {
	ante := make([]*z3.Term, 0, len(cases))
	for k := range cases {
		c := cases[k]
		c.Kind = sts.Error // the antecedent alone, not what the case does
		a, _, _, err := enc.caseBody(st, &c, ante)
		if err != nil {
			return nil, fmt.Errorf("smt: case %s: %w", cases[k].Label, err)
		}
		ante = append(ante, a)
	}
	return ante, nil
}

// reached is "the inner loop gets to test te": its path holds and no
// case it may complete before is selected.
func (enc *Encoding) reached(st *stepSyms, te *sts.Test, ante []*z3.Term) (*z3.Term, error) {
	b := &enc.b
	path := te.Path
	path.Kind = sts.Error
	a, _, _, err := enc.caseBody(st, &path, nil)
	if err != nil {
		return nil, fmt.Errorf("smt: event test of %s: %w", enc.Sys.Events[te.Event].Name, err)
	}
	parts := []*z3.Term{a}
	for _, x := range ante[:te.Before] {
		parts = append(parts, b.not(x))
	}
	return b.and(parts...), nil
}

// leastInput is the smallest input on which te's event is present and
// te's path can hold: its path's events and its own, as constant terms,
// with a key naming the set.
func leastInput(b *builder, n int, te *sts.Test) ([]*z3.Term, string) {
	on := make([]bool, n)
	on[te.Event] = true
	for _, lit := range te.Path.Events {
		on[lit.Event] = true
	}
	evs := make([]*z3.Term, n)
	key := make([]byte, n)
	for e := range evs {
		evs[e], key[e] = b.boolVal(on[e]), '0'
		if on[e] {
			key[e] = '1'
		}
	}
	return evs, string(key)
}
