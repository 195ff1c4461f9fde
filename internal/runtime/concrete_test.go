package runtime

import (
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// TestSuccessorsAreStepPerEvent checks the seam's view of a JSON machine
// against Step and Fire: event after event, merging only within an event
// (the "dup" event's two transitions reach one runtime, and "go" and "same"
// reach one runtime from A on different events, which must both stay).
func TestSuccessorsAreStepPerEvent(t *testing.T) {
	mc := compile(t, `{"schemaVersion": 1, "init": "A",
	  "states": [{"id": "A"}, {"id": "B"}],
	  "transitions": [
	    {"from": "A", "event": "dup", "to": "B"},
	    {"from": "A", "event": "dup", "to": "B"},
	    {"from": "A", "event": "go", "to": "B", "updates": [{"variable": "on", "op": "set", "value": true}]},
	    {"from": "A", "event": "same", "to": "B", "updates": [{"variable": "on", "op": "set", "value": true}]},
	    {"from": "B", "event": "go", "to": "A"}
	  ],
	  "variables": [{"name": "on", "kind": "boolean", "init": false}, {"name": "n", "kind": "integer", "init": 0}]}`)
	for _, r := range [][]int64{{0, 0, 0}, {1, 1, 0}} {
		var want, wantAll []string
		var buf StepBuffer
		for e := range mc.Events {
			want = append(want, labelled(mc, mc.Step(r, e, &buf))...)
			wantAll = append(wantAll, labelled(mc, mc.Fire(r, e, &buf))...)
		}
		var cb concrete.Buffer
		if got := labelled(mc, mc.Successors(r, &cb)); !slices.Equal(got, want) {
			t.Errorf("Successors(%v) = %v, want %v", r, got, want)
		}
		if got := labelled(mc, mc.Fired(r, &cb)); !slices.Equal(got, wantAll) {
			t.Errorf("Fired(%v) = %v, want %v", r, got, wantAll)
		}
	}
	var cb concrete.Buffer
	if n := len(mc.Successors([]int64{0, 0, 0}, &cb)); n != 3 {
		t.Errorf("from A: %d successors, want 3 (dup merged, go and same kept)", n)
	}
	for _, o := range mc.Fired([]int64{0, 0, 0}, &cb) {
		if want := mc.trans[o.Label].changed; !slices.Equal(o.Changed, want) {
			t.Errorf("transition %d: changed %v, want %v", o.Label, o.Changed, want)
		}
	}
	if got, want := mc.Ranges(), []concrete.Range{{Min: 0, Max: 1}, concrete.Bit, concrete.Unbounded}; !slices.Equal(got, want) {
		t.Errorf("Ranges = %v, want %v", got, want)
	}
	if from, ev, to := mc.Describe(4); from != "B" || ev != "go" || to != "A" {
		t.Errorf("Describe(4) = %s %s %s", from, ev, to)
	}
}

func labelled(mc *Machine, outs []Outcome) []string {
	var s []string
	for _, o := range outs {
		s = append(s, mc.Transition(o.Label).Event+">"+mc.Key(o.Next))
	}
	return s
}
