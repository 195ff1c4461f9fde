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
