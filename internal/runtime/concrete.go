package runtime

import (
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// A Machine is the JSON side of the concrete-machine seam: its states are
// the runtime words (the state index, then the variables) and its step
// labels the model's transitions.
var _ concrete.Machine = (*Machine)(nil)

// Ranges says the state index is word 0, booleans are bits and integers
// are unbounded words (big values are handles into the machine's table,
// see Word).
func (mc *Machine) Ranges() []concrete.Range {
	rs := make([]concrete.Range, mc.Width())
	rs[0] = concrete.Range{Min: 0, Max: int64(max(len(mc.States), 1) - 1)}
	for i, v := range mc.Vars {
		rs[1+i] = concrete.Unbounded
		if v.Kind == jsonmodel.Boolean {
			rs[1+i] = concrete.Bit
		}
	}
	return rs
}

// Successors steps r on every event of the sorted alphabet, in order, and
// returns the outcomes of all of them: Step's, event after event.
func (mc *Machine) Successors(r []int64, buf *concrete.Buffer) []concrete.Outcome {
	buf.Reset()
	for e := range mc.Events {
		mc.step(r, e, buf, true)
	}
	return buf.Outcomes()
}

// Fired is Successors without merging: Fire's outcomes, event after event.
func (mc *Machine) Fired(r []int64, buf *concrete.Buffer) []concrete.Outcome {
	buf.Reset()
	for e := range mc.Events {
		mc.step(r, e, buf, false)
	}
	return buf.Outcomes()
}

// Describe renders transition t as the states it leaves and enters and
// its event.
func (mc *Machine) Describe(t int) (from, event, to string) {
	tr := mc.Transition(t)
	return tr.From, tr.Event, tr.To
}

// MergesOutcomes reports whether Successors may merge two outcomes that
// Fired lists apart: two branches of one event in one state that enter
// the same state can reach the same runtime, unless their guards cannot
// hold at once (see exclusive). A search keeps the edges it interns only
// when nothing merges, so that they are Fired's (explore.Search.KeepEdges).
func (mc *Machine) MergesOutcomes() bool {
	for i := range mc.groups {
		g := &mc.groups[i]
		if mc.mayMerge(g.guarded, true) || mc.mayMerge(g.defaults, false) {
			return true
		}
	}
	return false
}

// mayMerge reports whether two of the transitions enter one state with
// guards (when guarded) that may hold at once.
func (mc *Machine) mayMerge(ts []int32, guarded bool) bool {
	for i, a := range ts {
		ta := &mc.trans[a]
		for _, b := range ts[i+1:] {
			tb := &mc.trans[b]
			if ta.to == tb.to && !(guarded && exclusive(ta.guard, tb.guard)) {
				return true
			}
		}
	}
	return false
}

// exclusive reports whether guards a and b provably never hold at once:
// each requires a leaf on one variable, and the leaves are == with two
// values, or == and != with one (the form of a toggle's branches). It
// compares words as eval does; anything else may overlap.
func exclusive(a, b *cguard) bool {
	for _, x := range required(a, nil) {
		for _, y := range required(b, nil) {
			if x.v != y.v {
				continue
			}
			switch {
			case x.op == "==" && y.op == "==" && x.val != y.val,
				x.op == "==" && y.op == "!=" && x.val == y.val,
				x.op == "!=" && y.op == "==" && x.val == y.val:
				return true
			}
		}
	}
	return false
}

// required appends to out the leaves that must hold for g to hold.
func required(g *cguard, out []*cguard) []*cguard {
	switch g.kind {
	case jsonmodel.GuardLeaf:
		return append(out, g)
	case jsonmodel.GuardAll:
		for _, c := range g.children {
			out = required(c, out)
		}
	}
	return out
}
