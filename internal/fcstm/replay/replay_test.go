package replay

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/bmc/bmctest"
	"github.com/stateproof/stateproof/internal/fcstm/lower"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/trace"
)

// solve solves fbmcq over src.
func solve(t testing.TB, src, fbmcq string) (*model.Model, *bmc.Result) {
	t.Helper()
	m, err := model.Parse("test.fcstm", src, model.Options{})
	if err != nil {
		t.Fatalf("model: %v", err)
	}
	sys, err := lower.Lower(m)
	if err != nil {
		t.Fatalf("lower: %v", err)
	}
	res := bmctest.Solve(t, sys, "q.fbmcq", fbmcq, bmc.Options{})
	return m, res
}

// witness solves fbmcq over src and returns the model and the decoded
// trace, which must exist.
func witness(t testing.TB, src, fbmcq string) (*model.Model, *trace.Trace) {
	t.Helper()
	m, res := solve(t, src, fbmcq)
	if res.Trace == nil {
		t.Fatalf("no model: %s", res.Outcome)
	}
	return m, res.Trace
}

// door is a small model with events, guards, effects and abstract calls
// in enter, during and exit slots. Opened's enter runs a concrete block
// after its abstract call, so the call's snapshot is taken mid-case.
const door = `def int opens = 0;
def int big = 9223372036854775807;
state Door {
    state Closed {
        exit abstract Unlatch;
    }
    state Opened {
        enter abstract Chime;
        enter { opens = opens + 1; big = big + 1; }
        during abstract Hold;
    }
    [*] -> Closed;
    Closed -> Opened :: Push effect { opens = opens + 10; };
    Opened -> Closed :: Pull;
}
`

func TestWitnessesReplay(t *testing.T) {
	for _, c := range []struct{ name, src, q string }{
		{"root", "state Root;", `check reach <= 1: active("Root");`},
		{"door opens", door, `check reach <= 4: active("Door.Opened") && var("opens") == 22;`},
		{"door held", door, `check reach <= 3: called("Door.Opened.Hold");`},
		{"havoc", "def int x = 0;\nstate R { state A; [*] -> A; A -> [*] :: Go effect { x = x * 3; }; }\n",
			"init cold havoc {x} where x == -7;\ncheck reach <= 2: terminated() && var(\"x\") == -21;"},
		{"hot start", door, "init state(\"Door.Opened\") havoc {opens, big} where opens == 5 && big == 1;\ncheck reach <= 2: active(\"Door.Closed\");"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, tr := witness(t, c.src, c.q)
			rep := New(m).Replay(tr)
			if !rep.OK() {
				t.Fatalf("mismatches: %v", rep.Mismatches)
			}
			if len(rep.Frames) != len(tr.Frames) || len(rep.Steps) != len(tr.Steps) {
				t.Errorf("runtime trace has %d frames and %d steps, the witness %d and %d", len(rep.Frames), len(rep.Steps), len(tr.Frames), len(tr.Steps))
			}
		})
	}
}

// The door witness ends in Opened after one push: its enter calls Chime
// before the block, so Chime's snapshot has opens = 10 (the effect ran,
// the enter block not yet) while the frame has 11 and big has left int64.
func TestMidCaseSnapshot(t *testing.T) {
	m, tr := witness(t, door, `check reach <= 2: active("Door.Opened");`)
	rep := New(m).Replay(tr)
	if !rep.OK() {
		t.Fatalf("mismatches: %v", rep.Mismatches)
	}
	st := rep.Steps[len(rep.Steps)-1]
	var chime *trace.Call
	for k := range st.AbstractCalls {
		if st.AbstractCalls[k].ActionName == "Door.Opened.Chime" {
			chime = &st.AbstractCalls[k]
		}
	}
	if chime == nil || chime.Role != "state_enter" || chime.Stage != "enter" {
		t.Fatalf("calls %+v", st.AbstractCalls)
	}
	if v, _ := lookup(chime.Snapshot, "opens"); v != int64(10) {
		t.Errorf("Chime sees opens = %v, want 10", v)
	}
	last := rep.Frames[len(rep.Frames)-1]
	want, _ := new(big.Int).SetString("9223372036854775808", 10)
	if v, _ := lookup(last.Vars, "big"); v == nil || v.(*big.Int).Cmp(want) != 0 {
		t.Errorf("big = %v, want %v", v, want)
	}
}

func lookup(vs []trace.Var, name string) (any, bool) {
	for _, v := range vs {
		if v.Name == name {
			return v.Value, true
		}
	}
	return nil, false
}

// Each tampering of a replayed witness is rejected at its own path, and
// nothing else is reported.
func TestTamperedTracesAreRejected(t *testing.T) {
	m, good := witness(t, door, `check reach <= 2: active("Door.Opened");`)
	if rep := New(m).Replay(good); !rep.OK() {
		t.Fatalf("the untampered witness: %v", rep.Mismatches)
	}
	// The push step is the last one; find its Chime call.
	last := len(good.Steps) - 1
	chime := slices.IndexFunc(good.Steps[last].AbstractCalls, func(c trace.Call) bool { return c.ActionName == "Door.Opened.Chime" })
	if chime < 0 {
		t.Fatalf("no Chime call in %+v", good.Steps[last])
	}
	n := len(good.Frames) - 1
	for _, c := range []struct {
		name, path string
		tamper     func(tr *trace.Trace)
	}{
		{"changed variable", "frames[" + itoa(n) + "].vars.opens", func(tr *trace.Trace) { setVar(tr.Frames[n].Vars, "opens", int64(12)) }},
		{"changed big variable", "frames[" + itoa(n) + "].vars.big", func(tr *trace.Trace) {
			setVar(tr.Frames[n].Vars, "big", new(big.Int).Lsh(big.NewInt(1), 64))
		}},
		{"changed state", "frames[" + itoa(n) + "].state", func(tr *trace.Trace) { tr.Frames[n].State = "Door.Closed" }},
		{"dropped consumed event", "steps[" + itoa(last) + "].consumed_events", func(tr *trace.Trace) { tr.Steps[last].Consumed = nil }},
		{"extra input event", "steps[" + itoa(last) + "].input_events", func(tr *trace.Trace) {
			tr.Steps[last].InputEvents = append(tr.Steps[last].InputEvents, tr.Steps[last].InputEvents...)
		}},
		{"changed delta", "steps[" + itoa(last) + "].delta", func(tr *trace.Trace) { tr.Steps[last].Delta = true }},
		{"extra call", "steps[" + itoa(last) + "].abstract_calls", func(tr *trace.Trace) {
			tr.Steps[last].AbstractCalls = append(tr.Steps[last].AbstractCalls, tr.Steps[last].AbstractCalls[0])
		}},
		{"changed call snapshot", "steps[" + itoa(last) + "].abstract_calls[" + itoa(chime) + "].snapshot.opens", func(tr *trace.Trace) {
			setVar(tr.Steps[last].AbstractCalls[chime].Snapshot, "opens", int64(11))
		}},
		{"changed call role", "steps[" + itoa(last) + "].abstract_calls[" + itoa(chime) + "].role", func(tr *trace.Trace) {
			tr.Steps[last].AbstractCalls[chime].Role = "leaf_during"
		}},
		{"terminated", "frames[" + itoa(n) + "].terminated", func(tr *trace.Trace) { tr.Frames[n].Terminated = true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := clone(good)
			c.tamper(tr)
			rep := New(m).Replay(tr)
			if len(rep.Mismatches) != 1 || rep.Mismatches[0].Path != c.path {
				t.Fatalf("mismatches %v, want exactly one at %s", rep.Mismatches, c.path)
			}
		})
	}
}

// Without the witness's input event the runtime stays in Closed: the
// replay says so at the step and at the frame after it, variables
// included.
func TestDroppedInputEvent(t *testing.T) {
	m, tr := witness(t, door, `check reach <= 2: active("Door.Opened");`)
	tr = clone(tr)
	last := len(tr.Steps) - 1
	tr.Steps[last].InputEvents = nil
	var got []string
	for _, mm := range New(m).Replay(tr).Mismatches {
		got = append(got, mm.Path)
	}
	n := itoa(last + 1)
	want := []string{"steps[" + itoa(last) + "].consumed_events", "steps[" + itoa(last) + "].abstract_calls", "frames[" + n + "].state", "frames[" + n + "].vars.opens", "frames[" + n + "].vars.big"}
	if !slices.Equal(got, want) {
		t.Fatalf("mismatches at %v, want %v", got, want)
	}
}

// A trace the runtime cannot run (an event the model does not have) is a
// runtime error at its step, not a panic.
func TestRuntimeErrorIsAMismatch(t *testing.T) {
	m, tr := witness(t, door, `check reach <= 2: active("Door.Opened");`)
	tr = clone(tr)
	tr.Steps[0].InputEvents = []trace.InputEvent{{Path: "Door.Nope", Reason: "case_positive", ModelValue: true}}
	rep := New(m).Replay(tr)
	if len(rep.Mismatches) == 0 || rep.Mismatches[len(rep.Mismatches)-1].Path != "steps[0]" || !strings.HasPrefix(rep.Mismatches[len(rep.Mismatches)-1].Message, "runtime error: ") {
		t.Fatalf("mismatches %v", rep.Mismatches)
	}
}

// A trace that starts terminated is compared with the synthetic trace of
// an ended machine: a call there is a mismatch.
func TestTerminatedStart(t *testing.T) {
	m, tr := witness(t, "def int x = 3;\nstate R { state A; [*] -> A; A -> [*] :: Go; }\n", "init terminated;\ncheck reach <= 2: terminated() && var(\"x\") == 3;")
	if rep := New(m).Replay(tr); !rep.OK() {
		t.Fatalf("mismatches %v", rep.Mismatches)
	}
	tr = clone(tr)
	tr.Steps[1].AbstractCalls = []trace.Call{{ActionName: "R.A.X"}}
	if rep := New(m).Replay(tr); len(rep.Mismatches) != 1 || rep.Mismatches[0].Path != "steps[1].abstract_calls" {
		t.Fatalf("mismatches %v", rep.Mismatches)
	}
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

func setVar(vs []trace.Var, name string, v any) {
	for i := range vs {
		if vs[i].Name == name {
			vs[i].Value = v
		}
	}
}

// clone deep-copies the slices of tr that the tests change.
func clone(tr *trace.Trace) *trace.Trace {
	out := *tr
	out.Frames = slices.Clone(tr.Frames)
	for i := range out.Frames {
		out.Frames[i].Vars = slices.Clone(out.Frames[i].Vars)
	}
	out.Steps = slices.Clone(tr.Steps)
	for i := range out.Steps {
		out.Steps[i].AbstractCalls = slices.Clone(out.Steps[i].AbstractCalls)
		for k := range out.Steps[i].AbstractCalls {
			out.Steps[i].AbstractCalls[k].Snapshot = slices.Clone(out.Steps[i].AbstractCalls[k].Snapshot)
		}
	}
	return &out
}

// A call filter's where sees the values at the call too: Chime runs after
// the push's effect (opens = 10) and before Opened's enter block (11).
func TestCallWhereSeesMidCaseValues(t *testing.T) {
	for _, c := range []struct {
		where   string
		outcome string
	}{
		{"opens == 10", "witness_found"},
		{"opens == 11", "no_witness"},
		{"opens == 0", "no_witness"},
	} {
		m, res := solve(t, door, `check reach <= 2: called("Door.Opened.Chime", *, where `+c.where+`);`)
		if res.Outcome != c.outcome {
			t.Errorf("where %s: %s, want %s", c.where, res.Outcome, c.outcome)
		}
		if res.Trace != nil {
			if rep := New(m).Replay(res.Trace); !rep.OK() {
				t.Errorf("where %s: replay %v", c.where, rep.Mismatches)
			}
		}
	}
}
