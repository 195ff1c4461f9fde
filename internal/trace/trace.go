// Package trace holds the public bounded trace a BMC witness decodes to
// (docs/architecture.md) and the replay record that compares it with the runtime.
// It sits between the symbolic side (package bmc decodes into it) and
// the concrete side (package runtime replays it), so that neither needs the
// other: replay evidence is only evidence while the two stay independent.
package trace

import (
	"fmt"
	"math/big"
)

// Var is one variable value of a frame, in declaration order. Value is an
// int64, a *big.Int (an integer outside the int64 range), a float64 or a
// bool; integers compare exactly whichever of the two forms they take.
type Var struct {
	Name  string
	Value any
}

// Frame is the visible state at one frame.
type Frame struct {
	Index      int
	StateID    int
	State      string // "" for a sentinel frame
	Sentinel   string // "init", "terminated" or ""
	Terminated bool
	Vars       []Var
}

// Lookup returns the value of a variable of the frame.
func (f *Frame) Lookup(name string) (any, bool) {
	for _, v := range f.Vars {
		if v.Name == name {
			return v.Value, true
		}
	}
	return nil, false
}

// InputEvent is an event passed to the runtime at a step, with the reason
// the decoder kept it (case_positive, explicit_true_assumption,
// property_support).
type InputEvent struct {
	Path       string
	Reason     string
	ModelValue bool
}

// Call is one abstract call record of a step.
type Call struct {
	Ordinal    int
	ActionName string
	Stage      string
	Role       string
	State      string
	ActiveLeaf string
	NamedRef   string // "" for none
	Snapshot   []Var
}

// Step is one executed step between two frames.
type Step struct {
	Index         int
	SourceFrame   int
	TargetFrame   int
	CaseLabel     string
	CaseKind      string
	Progress      string
	SourceState   string
	TargetState   string
	Delta         bool
	Gamma         bool
	InputEvents   []InputEvent
	EventReads    []InputEvent // debugging only; never passed to the runtime
	AbstractCalls []Call
	Consumed      []string
	Unconsumed    []string
	// Origin identifies the front-end element the case came from (for a
	// JSON model, the transition index; -1 for a stutter). It is how the
	// replayer picks the runtime outcome to follow when a step is
	// nondeterministic; it is not part of the public trace.
	Origin int
}

// Initial describes frame 0's initialisation.
type Initial struct {
	Mode     string // cold, state, terminated
	State    string
	Sentinel string
	Vars     []Var
}

// Trace is a decoded witness.
type Trace struct {
	Role    string // primary_witness, primary_counterexample, incomplete_suffix
	Initial Initial
	Frames  []Frame
	Steps   []Step
}

// RuntimeFrame is what the runtime showed at a frame.
type RuntimeFrame struct {
	Index      int
	State      string
	Terminated bool
	Vars       []Var
}

// RuntimeStep is what the runtime did at a step.
type RuntimeStep struct {
	Index         int
	InputEvents   []string
	Consumed      []string
	Unconsumed    []string
	AbstractCalls []Call
	Delta         bool
}

// Mismatch is one disagreement between the witness and the runtime.
type Mismatch struct {
	Path      string
	Expected  any
	Actual    any
	Message   string
	Tolerance *float64
}

func (m Mismatch) String() string {
	return fmt.Sprintf("%s: %s (expected %v, actual %v)", m.Path, m.Message, m.Expected, m.Actual)
}

// Replay is the result of replaying a trace on the runtime.
type Replay struct {
	Role       string
	Frames     []RuntimeFrame
	Steps      []RuntimeStep
	Mismatches []Mismatch
}

// OK reports whether the runtime agreed on every observation.
func (r *Replay) OK() bool { return len(r.Mismatches) == 0 }

// FloatTolerance is the absolute tolerance of float comparisons.
const FloatTolerance = 1e-9

// CompareFrame compares a witness frame with a runtime frame and appends
// mismatches with `frames[i]...` paths.
func CompareFrame(w *Frame, r *RuntimeFrame, out []Mismatch) []Mismatch {
	p := fmt.Sprintf("frames[%d]", w.Index)
	if w.State != r.State {
		out = append(out, Mismatch{Path: p + ".state", Expected: w.State, Actual: r.State, Message: "state mismatch"})
	}
	if w.Terminated != r.Terminated {
		out = append(out, Mismatch{Path: p + ".terminated", Expected: w.Terminated, Actual: r.Terminated, Message: "value mismatch"})
	}
	return compareVars(p+".vars", w.Vars, r.Vars, out)
}

// compareVars compares two variable lists at path: first their key sets,
// then, when those agree, every value.
func compareVars(path string, exp, act []Var, out []Mismatch) []Mismatch {
	if !sameKeys(exp, act) {
		return append(out, Mismatch{Path: path, Expected: names(exp), Actual: names(act), Message: "key set mismatch"})
	}
	for _, v := range exp {
		a, _ := lookup(act, v.Name)
		if m, ok := compareValue(path+"."+v.Name, v.Value, a); !ok {
			out = append(out, m)
		}
	}
	return out
}

func compareValue(path string, exp, act any) (Mismatch, bool) {
	ef, eIsFloat := exp.(float64)
	af, aIsFloat := act.(float64)
	if eIsFloat || aIsFloat {
		if !eIsFloat {
			ef, eIsFloat = asFloat(exp)
		}
		if !aIsFloat {
			af, aIsFloat = asFloat(act)
		}
		tol := FloatTolerance
		if !eIsFloat || !aIsFloat || abs(ef-af) > tol {
			return Mismatch{Path: path, Expected: exp, Actual: act, Message: "value mismatch", Tolerance: &tol}, false
		}
		return Mismatch{}, true
	}
	if ei, ok := exactInt(exp); ok {
		if ai, ok := exactInt(act); ok && ei.Cmp(ai) == 0 {
			return Mismatch{}, true
		}
		return Mismatch{Path: path, Expected: exp, Actual: act, Message: "value mismatch"}, false
	}
	if exp != act {
		return Mismatch{Path: path, Expected: exp, Actual: act, Message: "value mismatch"}, false
	}
	return Mismatch{}, true
}

// Integer returns the value form of an integer: an int64 when it fits, else
// x itself.
func Integer(x *big.Int) any {
	if x.IsInt64() {
		return x.Int64()
	}
	return x
}

// exactInt returns an integer value (int64 or *big.Int) as a big.Int.
func exactInt(x any) (*big.Int, bool) {
	switch t := x.(type) {
	case int64:
		return big.NewInt(t), true
	case *big.Int:
		return t, true
	}
	return nil, false
}

func asFloat(x any) (float64, bool) {
	switch t := x.(type) {
	case float64:
		return t, true
	case int64:
		return float64(t), true
	case *big.Int:
		f, _ := new(big.Float).SetInt(t).Float64()
		return f, true
	}
	return 0, false
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func lookup(vs []Var, name string) (any, bool) {
	for _, v := range vs {
		if v.Name == name {
			return v.Value, true
		}
	}
	return nil, false
}

func names(vs []Var) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name
	}
	return out
}

func sameKeys(a, b []Var) bool {
	if len(a) != len(b) {
		return false
	}
	for _, v := range a {
		if _, ok := lookup(b, v.Name); !ok {
			return false
		}
	}
	return true
}

// CompareStep compares the runtime observations of a step with the
// witness: input, consumed and unconsumed events, delta, and the ordered
// abstract calls. Case labels, kinds, progress, gamma and event reads have
// no runtime counterpart and are not compared.
func CompareStep(w *Step, r *RuntimeStep, out []Mismatch) []Mismatch {
	p := fmt.Sprintf("steps[%d]", w.Index)
	in := make([]string, len(w.InputEvents))
	for i, e := range w.InputEvents {
		in[i] = e.Path
	}
	out = compareList(p+".input_events", in, r.InputEvents, out)
	out = compareList(p+".consumed_events", w.Consumed, r.Consumed, out)
	out = compareList(p+".unconsumed_events", w.Unconsumed, r.Unconsumed, out)
	if w.Delta != r.Delta {
		out = append(out, Mismatch{Path: p + ".delta", Expected: w.Delta, Actual: r.Delta, Message: "value mismatch"})
	}
	if len(w.AbstractCalls) != len(r.AbstractCalls) {
		return append(out, Mismatch{Path: p + ".abstract_calls", Expected: len(w.AbstractCalls), Actual: len(r.AbstractCalls), Message: "length mismatch"})
	}
	for k := range w.AbstractCalls {
		out = compareCall(fmt.Sprintf("%s.abstract_calls[%d]", p, k), &w.AbstractCalls[k], &r.AbstractCalls[k], out)
	}
	return out
}

func compareList(path string, exp, act []string, out []Mismatch) []Mismatch {
	if len(exp) != len(act) {
		return append(out, Mismatch{Path: path, Expected: exp, Actual: act, Message: "length mismatch"})
	}
	for i := range exp {
		if exp[i] != act[i] {
			return append(out, Mismatch{Path: path, Expected: exp, Actual: act, Message: "value mismatch"})
		}
	}
	return out
}

func compareCall(p string, w, r *Call, out []Mismatch) []Mismatch {
	fields := []struct {
		name     string
		exp, act any
	}{
		{"ordinal", w.Ordinal, r.Ordinal}, {"action_name", w.ActionName, r.ActionName},
		{"stage", w.Stage, r.Stage}, {"role", w.Role, r.Role}, {"state", w.State, r.State},
		{"active_leaf", w.ActiveLeaf, r.ActiveLeaf}, {"named_ref", w.NamedRef, r.NamedRef},
	}
	for _, f := range fields {
		if f.exp != f.act {
			out = append(out, Mismatch{Path: p + "." + f.name, Expected: f.exp, Actual: f.act, Message: "value mismatch"})
		}
	}
	return compareVars(p+".snapshot", w.Snapshot, r.Snapshot, out)
}
