package runtime

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/trace"
)

// Replay re-executes a decoded bounded trace on the concrete semantics
// (docs/architecture.md). Frame 0 seeds the runtime (state and every variable);
// at each step the runtime takes the witness's input event, follows the
// outcome of the transition the witness names (a JSON step may be
// nondeterministic), or — for a stutter step — checks that no event is
// enabled at all. Every runtime frame and step observation is compared with
// the witness; a disagreement becomes a mismatch with its exact path.
func (mc *Machine) Replay(tr *trace.Trace) *trace.Replay {
	rep := &trace.Replay{Role: tr.Role}
	if len(tr.Frames) == 0 {
		rep.Mismatches = append(rep.Mismatches, trace.Mismatch{Path: "frames", Expected: "at least one frame", Actual: 0, Message: "length mismatch"})
		return rep
	}
	r, err := mc.runtimeOf(&tr.Frames[0])
	if err != nil {
		rep.Mismatches = append(rep.Mismatches, trace.Mismatch{Path: "frames[0]", Message: "runtime error: " + err.Error()})
		return rep
	}
	rep.Frames = append(rep.Frames, mc.observe(0, r))
	rep.Mismatches = trace.CompareFrame(&tr.Frames[0], &rep.Frames[0], rep.Mismatches)
	var buf StepBuffer
	for i := range tr.Steps {
		w := &tr.Steps[i]
		rs, next, err := mc.replayStep(r, w, &buf)
		if err != nil {
			rep.Mismatches = append(rep.Mismatches, trace.Mismatch{Path: fmt.Sprintf("steps[%d]", i), Message: "runtime error: " + err.Error()})
		}
		rep.Steps = append(rep.Steps, rs)
		rep.Mismatches = trace.CompareStep(w, &rs, rep.Mismatches)
		r = next
		if i+1 < len(tr.Frames) {
			rep.Frames = append(rep.Frames, mc.observe(i+1, r))
			rep.Mismatches = trace.CompareFrame(&tr.Frames[i+1], &rep.Frames[i+1], rep.Mismatches)
		}
	}
	return rep
}

// runtimeOf builds a hot-start runtime from a witness frame.
func (mc *Machine) runtimeOf(f *trace.Frame) ([]int64, error) {
	s := mc.StateIndex(f.State)
	if s < 0 {
		return nil, fmt.Errorf("frame 0 is in %q, which is not a state of the model", f.State)
	}
	r := make([]int64, mc.Width())
	r[0] = int64(s)
	for k, v := range mc.Vars {
		val, ok := f.Lookup(v.Name)
		if !ok {
			return nil, fmt.Errorf("frame 0 has no value for %q", v.Name)
		}
		switch x := val.(type) {
		case int64:
			r[1+k] = mc.IntWord(x)
		case *big.Int:
			r[1+k] = mc.Word(x)
		case bool:
			if x {
				r[1+k] = 1
			}
		default:
			return nil, fmt.Errorf("frame 0 gives %q the value %v of type %T", v.Name, val, val)
		}
	}
	return r, nil
}

// replayStep executes one witness step from r and returns what the runtime
// observed and the runtime after it.
func (mc *Machine) replayStep(r []int64, w *trace.Step, buf *StepBuffer) (trace.RuntimeStep, []int64, error) {
	rs := trace.RuntimeStep{Index: w.Index, Consumed: []string{}, Unconsumed: []string{}}
	for _, e := range w.InputEvents {
		rs.InputEvents = append(rs.InputEvents, e.Path)
	}
	if w.Origin < 0 {
		rs.Delta = true
		rs.Unconsumed = append(rs.Unconsumed, rs.InputEvents...)
		for e := range mc.Events {
			if mc.Enabled(r, e) {
				return rs, r, fmt.Errorf("the witness stutters, but event %q is enabled in %s", mc.Events[e], mc.Key(r))
			}
		}
		return rs, r, nil
	}
	if len(rs.InputEvents) != 1 {
		rs.Delta = true
		rs.Unconsumed = append(rs.Unconsumed, rs.InputEvents...)
		return rs, r, fmt.Errorf("a JSON step takes exactly one event; the witness passes %d", len(rs.InputEvents))
	}
	if w.Origin >= len(mc.Model.Transitions) {
		rs.Delta = true
		rs.Unconsumed = append(rs.Unconsumed, rs.InputEvents...)
		return rs, r, fmt.Errorf("the witness names transition %d; the model has %d", w.Origin, len(mc.Model.Transitions))
	}
	e := mc.EventIndex(rs.InputEvents[0])
	if e < 0 {
		rs.Delta = true
		rs.Unconsumed = append(rs.Unconsumed, rs.InputEvents...)
		return rs, r, fmt.Errorf("event %q is not in the model's alphabet", rs.InputEvents[0])
	}
	if next, ok := mc.Fires(r, e, w.Origin, buf); ok {
		rs.Consumed = append(rs.Consumed, mc.Events[e])
		rs.AbstractCalls = mc.calls(w.Origin, r, next)
		return rs, slices.Clone(next), nil
	}
	rs.Delta = !mc.anyOutcome(r, e, buf)
	if rs.Delta {
		rs.Unconsumed = append(rs.Unconsumed, mc.Events[e])
	}
	t := mc.Transition(w.Origin)
	return rs, r, fmt.Errorf("transition %d (%q --%s--> %q) is not an outcome of %q in %s", w.Origin, t.From, t.Event, t.To, mc.Events[e], mc.Key(r))
}

func (mc *Machine) anyOutcome(r []int64, e int, buf *StepBuffer) bool {
	return len(mc.Step(r, e, buf)) > 0
}

// calls lists the entry/exit actions a transition fires: the source's
// onExit actions (seeing the pre-state), then the target's onEntry actions
// (seeing the post-state).
func (mc *Machine) calls(t int, pre, post []int64) []trace.Call {
	tr := mc.Transition(t)
	var out []trace.Call
	for _, a := range mc.Model.States[mc.StateIndex(tr.From)].OnExit {
		out = append(out, trace.Call{Ordinal: len(out), ActionName: a, Stage: "exit", Role: "state_exit", State: tr.From, ActiveLeaf: tr.From, Snapshot: mc.VarList(pre)})
	}
	for _, a := range mc.Model.States[mc.StateIndex(tr.To)].OnEntry {
		out = append(out, trace.Call{Ordinal: len(out), ActionName: a, Stage: "enter", Role: "state_enter", State: tr.To, ActiveLeaf: tr.To, Snapshot: mc.VarList(post)})
	}
	return out
}

func (mc *Machine) observe(i int, r []int64) trace.RuntimeFrame {
	return trace.RuntimeFrame{Index: i, State: mc.States[r[0]], Terminated: mc.Model.States[r[0]].Terminal, Vars: mc.VarList(r)}
}

// VarList renders the variables of r in declaration order (int64, or
// *big.Int outside the int64 range, or bool).
func (mc *Machine) VarList(r []int64) []trace.Var {
	out := make([]trace.Var, len(mc.Vars))
	for k, v := range mc.Vars {
		val := mc.IntValue(r[1+k])
		if v.Kind == jsonmodel.Boolean {
			val = r[1+k] != 0
		}
		out[k] = trace.Var{Name: v.Name, Value: val}
	}
	return out
}
