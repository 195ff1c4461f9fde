package replay

import (
	"fmt"
	"math/big"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/trace"
)

// A Replayer replays traces of one model. It keeps no state between
// replays and is safe for concurrent use.
type Replayer struct {
	m *model.Model
}

// New returns the replayer of m.
func New(m *model.Model) *Replayer { return &Replayer{m: m} }

// Replay runs tr on a fresh runtime and compares every observation. A
// runtime error ends the replay at that step (the message says
// "runtime error: …"): the runtime state after a failed cycle is the
// state before it, so later comparisons would only repeat the one fault.
func (rp *Replayer) Replay(tr *trace.Trace) *trace.Replay {
	rep := &trace.Replay{Role: tr.Role}
	if len(tr.Frames) == 0 {
		rep.Mismatches = append(rep.Mismatches, trace.Mismatch{Path: "frames", Expected: "at least one frame", Actual: 0, Message: "length mismatch"})
		return rep
	}
	if len(tr.Steps) != len(tr.Frames)-1 {
		rep.Mismatches = append(rep.Mismatches, trace.Mismatch{Path: "steps", Expected: len(tr.Frames) - 1, Actual: len(tr.Steps), Message: "length mismatch"})
		return rep
	}
	f0 := &tr.Frames[0]
	if f0.Sentinel == "terminated" || f0.Terminated {
		return rp.replayEnded(tr, rep)
	}
	opts, err := rp.start(f0)
	var rt *runtime.Runtime
	if err == nil {
		rt, err = runtime.New(rp.m, opts)
	}
	if err != nil {
		rep.Mismatches = append(rep.Mismatches, trace.Mismatch{Path: "frames[0]", Message: "runtime error: " + err.Error()})
		return rep
	}
	// A cold start shows the init sentinel until a cycle commits: the
	// runtime has not entered its root yet.
	entered := opts.InitialState != ""
	rep.Frames = append(rep.Frames, rp.frame(0, rt, entered))
	rep.Mismatches = trace.CompareFrame(f0, &rep.Frames[0], rep.Mismatches)
	for i := range tr.Steps {
		w := &tr.Steps[i]
		in := make([]string, len(w.InputEvents))
		for k, e := range w.InputEvents {
			in[k] = e.Path
		}
		cyc, err := rt.Cycle(in)
		if err != nil {
			rep.Mismatches = append(rep.Mismatches, trace.Mismatch{Path: fmt.Sprintf("steps[%d]", i), Message: "runtime error: " + err.Error()})
			return rep
		}
		entered = entered || !cyc.Delta
		rs := rp.step(i, cyc)
		rep.Steps = append(rep.Steps, rs)
		rep.Mismatches = trace.CompareStep(w, &rs, rep.Mismatches)
		rep.Frames = append(rep.Frames, rp.frame(i+1, rt, entered))
		rep.Mismatches = trace.CompareFrame(&tr.Frames[i+1], &rep.Frames[i+1], rep.Mismatches)
	}
	return rep
}

// replayEnded is the replay of a trace that starts terminated: there is
// no runtime to run, and the expected runtime trace is every frame
// terminated with frame 0's variables and every step without inputs or
// calls.
func (rp *Replayer) replayEnded(tr *trace.Trace, rep *trace.Replay) *trace.Replay {
	vars := tr.Frames[0].Vars
	for i := range tr.Frames {
		rf := trace.RuntimeFrame{Index: i, Terminated: true, Vars: vars}
		rep.Frames = append(rep.Frames, rf)
		rep.Mismatches = trace.CompareFrame(&tr.Frames[i], &rf, rep.Mismatches)
		if i < len(tr.Steps) {
			rs := trace.RuntimeStep{Index: i, InputEvents: []string{}, Consumed: []string{}, Unconsumed: []string{}, AbstractCalls: []trace.Call{}}
			rep.Steps = append(rep.Steps, rs)
			rep.Mismatches = trace.CompareStep(&tr.Steps[i], &rs, rep.Mismatches)
		}
	}
	return rep
}

// start turns frame 0 into runtime options: the init sentinel is a cold
// start with frame 0's values as overrides, a state a hot start there.
func (rp *Replayer) start(f *trace.Frame) (runtime.Options, error) {
	var opts runtime.Options
	if f.Sentinel != "init" {
		if f.State == "" {
			return opts, fmt.Errorf("frame 0 is neither a sentinel nor a state")
		}
		opts.InitialState = f.State
	}
	opts.InitialVars = make(map[string]expr.Value, len(f.Vars))
	for _, v := range f.Vars {
		val, err := value(v)
		if err != nil {
			return opts, err
		}
		opts.InitialVars[v.Name] = val
	}
	return opts, nil
}

// value converts a trace value to a runtime value.
func value(v trace.Var) (expr.Value, error) {
	switch x := v.Value.(type) {
	case int64:
		return expr.IntVal(x), nil
	case *big.Int:
		return expr.BigIntVal(x), nil
	case float64:
		return expr.RealVal(x), nil
	}
	return expr.Value{}, fmt.Errorf("frame 0 gives %s the value %v of type %T, which no FCSTM variable holds", v.Name, v.Value, v.Value)
}

// frame is what the runtime shows after frame i's cycle. Before the
// first committed cycle of a cold start it is on the init sentinel
// (state "").
func (rp *Replayer) frame(i int, rt *runtime.Runtime, entered bool) trace.RuntimeFrame {
	f := trace.RuntimeFrame{Index: i, Terminated: rt.Ended(), Vars: rp.vars(rt.Values())}
	if entered && !rt.Ended() {
		f.State = rt.State()
	}
	return f
}

// step is what the runtime did in one cycle.
func (rp *Replayer) step(i int, c *runtime.Cycle) trace.RuntimeStep {
	rs := trace.RuntimeStep{
		Index: i, Delta: c.Delta,
		InputEvents: nonNil(c.Events), Consumed: nonNil(c.Consumed), Unconsumed: nonNil(c.Unconsumed),
		AbstractCalls: []trace.Call{},
	}
	for k := range c.Calls {
		call := &c.Calls[k]
		snap := make([]trace.Var, len(rp.m.Vars))
		for j, v := range rp.m.Vars {
			snap[j] = trace.Var{Name: v.Name, Value: traceValue(call.Vars[v.Name])}
		}
		rs.AbstractCalls = append(rs.AbstractCalls, trace.Call{
			Ordinal: k, ActionName: call.Action, Stage: string(call.Stage), Role: call.Role.CallRole(),
			State: call.State, ActiveLeaf: call.ActiveLeaf, NamedRef: call.NamedRef, Snapshot: snap,
		})
	}
	return rs
}

// vars lists runtime values (in declaration order) as trace variables.
func (rp *Replayer) vars(vals []expr.Value) []trace.Var {
	out := make([]trace.Var, len(vals))
	for i, v := range vals {
		out[i] = trace.Var{Name: rp.m.Vars[i].Name, Value: traceValue(v)}
	}
	return out
}

// traceValue is the trace form of a runtime value: integers exact (int64
// or *big.Int), reals as float64.
func traceValue(v expr.Value) any {
	switch v.Type() {
	case expr.Int:
		if v.IsInt64() {
			return v.Int()
		}
		return v.BigInt()
	case expr.Real:
		return v.Real()
	case expr.Bool:
		return v.Bool()
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
