package runtime

import (
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/trace"
)

const stepModel = `{"schemaVersion": 1, "init": "A",
  "states": [{"id": "A"}, {"id": "B"}, {"id": "C", "terminal": true, "onEntry": ["log_c"]}],
  "transitions": [
    {"from": "A", "event": "go", "to": "B", "guard": {"variable": "x", "op": "<", "value": 2}, "updates": [{"variable": "x", "op": "inc", "value": 5}]},
    {"from": "A", "event": "go", "to": "C", "guard": {"variable": "x", "op": "<", "value": 3}},
    {"from": "A", "event": "go", "to": "A", "updates": [{"variable": "x", "op": "dec"}]},
    {"from": "A", "event": "dup", "to": "B"},
    {"from": "A", "event": "dup", "to": "B"},
    {"from": "B", "event": "go", "to": "C", "updates": [{"variable": "on", "op": "set", "value": true}, {"variable": "x", "op": "set", "value": -4}]}
  ],
  "variables": [{"name": "x", "kind": "integer", "init": 0, "min": 0, "max": 3}, {"name": "on", "kind": "boolean", "init": false}]}`

func compile(t *testing.T, src string) *Machine {
	t.Helper()
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatalf("model: %v %v", err, res.Errors)
	}
	return Compile(res.Model)
}

func keys(mc *Machine, outs []Outcome) []string {
	var out []string
	for _, o := range outs {
		out = append(out, mc.Key(o.Next))
	}
	return out
}

func TestStepSemantics(t *testing.T) {
	mc := compile(t, stepModel)
	r := mc.Initial(make([]int64, mc.Width()))
	var buf StepBuffer
	goEv, dup := mc.EventIndex("go"), mc.EventIndex("dup")
	// Two guards hold: both outcomes, in model order; the default does not fire.
	got := keys(mc, mc.Step(r, goEv, &buf))
	want := []string{`B|{"on":false,"x":5}`, `C|{"on":false,"x":0}`}
	if !slices.Equal(got, want) {
		t.Errorf("go from A{x:0} = %v, want %v", got, want)
	}
	// No guard holds: the default fires, and dec is not clamped at min.
	r[1] = 7 // x (words: state, x, on)
	got = keys(mc, mc.Step(r, goEv, &buf))
	if !slices.Equal(got, []string{`A|{"on":false,"x":6}`}) {
		t.Errorf("default branch: %v", got)
	}
	r[1] = -1 // x = -1: below min, still stepped, nothing clamped
	got = keys(mc, mc.Step(r, goEv, &buf))
	if len(got) != 2 {
		t.Errorf("x=-1: %v", got)
	}
	// Identical outcomes are merged (first seen kept) ...
	outs := mc.Step(r, dup, &buf)
	if len(outs) != 1 || outs[0].Label != 3 {
		t.Errorf("dup outcomes: %+v", outs)
	}
	// ... but Fires can still follow the second branch.
	if next, ok := mc.Fires(r, dup, 4, &buf); !ok || mc.StateIndex("B") != int(next[0]) {
		t.Errorf("Fires(dup, 4) = %v, %v", next, ok)
	}
	if _, ok := mc.Fires(r, goEv, 2, &buf); ok {
		t.Error("the default fired although a guarded sibling holds")
	}
	// Updates apply in order; booleans are 0/1.
	b := []int64{int64(mc.StateIndex("B")), 3, 0}
	got = keys(mc, mc.Step(b, goEv, &buf))
	if !slices.Equal(got, []string{`C|{"on":true,"x":-4}`}) {
		t.Errorf("B go: %v", got)
	}
	if mc.Enabled(b, dup) || !mc.Enabled(b, goEv) {
		t.Error("Enabled disagrees with Step")
	}
}

// witness builds the trace of A --go(transition 0)--> B --go--> C.
func witness() *trace.Trace {
	v := func(x int64, on bool) []trace.Var {
		return []trace.Var{{Name: "x", Value: x}, {Name: "on", Value: on}}
	}
	in := func(e string) []trace.InputEvent {
		return []trace.InputEvent{{Path: e, Reason: "case_positive", ModelValue: true}}
	}
	return &trace.Trace{
		Frames: []trace.Frame{{Index: 0, State: "A", Vars: v(0, false)}, {Index: 1, State: "B", Vars: v(5, false)}, {Index: 2, State: "C", Terminated: true, Vars: v(-4, true)}},
		Steps: []trace.Step{
			{Index: 0, Origin: 0, InputEvents: in("go"), Consumed: []string{"go"}, Unconsumed: []string{}},
			{Index: 1, Origin: 5, InputEvents: in("go"), Consumed: []string{"go"}, Unconsumed: []string{},
				AbstractCalls: []trace.Call{{Ordinal: 0, ActionName: "log_c", Stage: "enter", Role: "state_enter", State: "C", ActiveLeaf: "C", Snapshot: v(-4, true)}}},
		},
	}
}

func TestReplayAgreesAndPinpointsTampering(t *testing.T) {
	mc := compile(t, stepModel)
	if rep := mc.Replay(witness()); !rep.OK() {
		t.Fatalf("faithful witness rejected: %v", rep.Mismatches)
	}
	cases := []struct {
		name   string
		tamper func(*trace.Trace)
		path   string
	}{
		{"variable", func(w *trace.Trace) { w.Frames[1].Vars[0].Value = int64(4) }, "frames[1].vars.x"},
		{"boolean", func(w *trace.Trace) { w.Frames[2].Vars[1].Value = false }, "frames[2].vars.on"},
		{"state", func(w *trace.Trace) { w.Frames[1].State = "A" }, "frames[1].state"},
		{"terminated flag", func(w *trace.Trace) { w.Frames[2].Terminated = false }, "frames[2].terminated"},
		{"missing variable", func(w *trace.Trace) { w.Frames[1].Vars = w.Frames[1].Vars[:1] }, "frames[1].vars"},
		{"consumed events", func(w *trace.Trace) { w.Steps[0].Consumed = []string{} }, "steps[0].consumed_events"},
		{"call snapshot", func(w *trace.Trace) { w.Steps[1].AbstractCalls[0].Snapshot[0].Value = int64(0) }, "steps[1].abstract_calls[0].snapshot.x"},
		{"calls missing", func(w *trace.Trace) { w.Steps[1].AbstractCalls = nil }, "steps[1].abstract_calls"},
		{"branch not enabled", func(w *trace.Trace) { w.Steps[0].Origin = 2 }, "steps[0]"},
		{"stutter while enabled", func(w *trace.Trace) { w.Steps[0].Origin = -1 }, "steps[0]"},
		{"unknown transition", func(w *trace.Trace) { w.Steps[0].Origin = 99 }, "steps[0]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := witness()
			c.tamper(w)
			rep := mc.Replay(w)
			if rep.OK() {
				t.Fatal("tampered witness accepted")
			}
			if rep.Mismatches[0].Path != c.path {
				t.Errorf("first mismatch at %s, want %s (all: %v)", rep.Mismatches[0].Path, c.path, rep.Mismatches)
			}
		})
	}
}
