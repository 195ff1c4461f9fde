package runtime

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// A transition's effect runs before the target's enter and during, all in
// the cycle that takes it.
func TestTransitionOrder(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("n", 0)
	a, bb := b.state(b.m.Root, "A"), b.state(b.m.Root, "B")
	b.action(a, model.RoleExit, "", "n = n * 10 + 1")
	b.action(bb, model.RoleEnter, "", "n = n * 10 + 3")
	b.action(bb, model.RoleDuring, "", "n = n * 10 + 4")
	b.trans(b.m.Root, nil, a, "", "", "")
	b.trans(b.m.Root, a, bb, "R.A.Go", "", "n = n * 10 + 2")
	r := b.runtime(Options{})
	wantState(t, r, "R", map[string]int64{"n": 0})
	step(t, r)
	wantState(t, r, "R.A", map[string]int64{"n": 0})
	c := step(t, r, "Go")
	wantState(t, r, "R.B", map[string]int64{"n": 1234})
	if !reflect.DeepEqual(c.Consumed, []string{"R.A.Go"}) || len(c.Unconsumed) != 0 {
		t.Errorf("consumed %v unconsumed %v", c.Consumed, c.Unconsumed)
	}
	var roles []string
	for _, a := range c.Actions {
		roles = append(roles, string(a.Role)+"@"+a.State)
	}
	if want := "exit@R.A effect@R enter@R.B during@R.B"; strings.Join(roles, " ") != want {
		t.Errorf("actions %v, want %s", roles, want)
	}
}

// Aspects wrap a leaf's during from the root down and back up.
func TestAspectNesting(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("c", 0)
	sys := b.state(b.m.Root, "Sys")
	leaf := b.state(sys, "L")
	b.action(b.m.Root, model.RoleAspectBefore, "", "c = c + 1")
	b.action(b.m.Root, model.RoleAspectAfter, "", "c = c + 1000")
	b.action(sys, model.RoleAspectBefore, "", "c = c * 10")
	b.action(sys, model.RoleAspectAfter, "", "c = c + 100")
	b.action(leaf, model.RoleDuring, "", "c = c + 5")
	b.trans(b.m.Root, nil, sys, "", "", "")
	b.trans(sys, nil, leaf, "", "", "")
	r := b.runtime(Options{})
	step(t, r)
	// ((0+1)*10 + 5 + 100) + 1000
	wantState(t, r, "R.Sys.L", map[string]int64{"c": 1115})
}

// A cold start whose root cannot take its initial transition is a Delta
// that leaves nothing behind; the root's enter runs again next time.
func TestColdDeltaThenStart(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("x", 0)
	a := b.state(b.m.Root, "A")
	b.action(b.m.Root, model.RoleEnter, "", "x = x + 1")
	b.trans(b.m.Root, nil, a, "R.Start", "", "")
	r := b.runtime(Options{})
	c := step(t, r)
	if !c.Delta {
		t.Fatal("want a Delta")
	}
	wantState(t, r, "R", map[string]int64{"x": 0})
	c = step(t, r, "R.Start")
	if c.Delta {
		t.Fatal("want progress")
	}
	wantState(t, r, "R.A", map[string]int64{"x": 1})
}

// A parent-level transition fires only after the child left through [*],
// in the same cycle; otherwise the leaf stays and runs its during.
func TestParentLevelAfterChildExit(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("n", 0)
	sys := b.state(b.m.Root, "Sys")
	a := b.state(sys, "A")
	bb := b.state(b.m.Root, "B")
	b.action(a, model.RoleDuring, "", "n = n + 1")
	b.action(sys, model.RoleDuringAfter, "", "n = n + 10")
	b.trans(b.m.Root, nil, sys, "", "", "")
	b.trans(sys, nil, a, "", "", "")
	b.trans(sys, a, nil, "R.Sys.A.Stop", "", "")
	b.trans(b.m.Root, sys, bb, "R.Sys.ToB", "", "")
	r := b.runtime(Options{})
	step(t, r)
	step(t, r, "R.Sys.A.Stop")
	wantState(t, r, "R.Sys.A", map[string]int64{"n": 2})
	c := step(t, r, "R.Sys.A.Stop", "R.Sys.ToB")
	wantState(t, r, "R.B", map[string]int64{"n": 12})
	if len(c.Consumed) != 2 {
		t.Errorf("consumed %v", c.Consumed)
	}
}

// The first candidate whose continuation fails is skipped: the next one is
// taken, and nothing of the failed one remains.
func TestValidationSkipsDeadCandidate(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("m", 0)
	bad, good := b.state(b.m.Root, "Bad"), b.state(b.m.Root, "Good")
	dead := b.state(bad, "Dead")
	b.trans(bad, nil, dead, "", "false", "")
	b.trans(b.m.Root, nil, bad, "", "", "m = m + 10")
	b.trans(b.m.Root, nil, good, "", "", "m = m + 1")
	r := b.runtime(Options{})
	step(t, r)
	wantState(t, r, "R.Good", map[string]int64{"m": 1})
}

// A dead-end pseudo state rejects the candidate: the leaf runs its during
// and the cycle is not a Delta.
func TestDeadEndPseudo(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("n", 0)
	a, p := b.state(b.m.Root, "A"), b.pseudo(b.m.Root, "P")
	b.action(a, model.RoleDuring, "", "n = n + 1")
	b.action(p, model.RoleEnter, "", "n = n + 100")
	b.trans(b.m.Root, nil, a, "", "", "")
	b.trans(b.m.Root, a, p, "R.A.Go", "", "")
	r := b.runtime(Options{})
	step(t, r)
	if c := step(t, r, "Go"); c.Delta {
		t.Error("a rejected candidate is not a Delta")
	}
	wantState(t, r, "R.A", map[string]int64{"n": 2})
}

// Errors leave the runtime as it was and carry their class.
func TestErrorsRollBack(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("n", 1)
	b.intVar("d", 0)
	a, bb, c := b.state(b.m.Root, "A"), b.state(b.m.Root, "B"), b.state(b.m.Root, "C")
	b.action(a, model.RoleDuring, "", "n = n + 1")
	b.trans(b.m.Root, nil, a, "", "", "")
	b.trans(b.m.Root, a, bb, "R.A.Div", "", "n = n / d")
	b.trans(b.m.Root, a, c, "R.A.Half", "", "n = n / 4")
	r := b.runtime(Options{})
	step(t, r)
	for _, tc := range []struct {
		event string
		class Class
		text  string
	}{
		{"Div", ClassExpression, "operation assignment to 'n' evaluation failed: division by zero"},
		{"Half", ClassWriteback, "non-integer float from operation block writeback"},
		{"Nope", ClassEvent, "unknown event"},
	} {
		_, err := r.Cycle([]string{tc.event})
		var e *Error
		if !errors.As(err, &e) || e.Class != tc.class || !strings.Contains(e.Message, tc.text) {
			t.Errorf("%s: error %v, want class %s with %q", tc.event, err, tc.class, tc.text)
		}
		wantState(t, r, "R.A", map[string]int64{"n": 2, "d": 0})
	}
}

// A pseudo self loop that changes a variable runs into the step limit.
func TestStepLimit(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("spin", 0)
	a, p := b.state(b.m.Root, "A"), b.pseudo(b.m.Root, "P")
	b.action(p, model.RoleDuring, "", "spin = spin + 1")
	b.trans(b.m.Root, nil, a, "", "", "")
	b.trans(b.m.Root, a, p, "R.A.Go", "", "")
	b.trans(b.m.Root, p, p, "", "", "")
	r := b.runtime(Options{})
	step(t, r)
	_, err := r.Cycle([]string{"Go"})
	var e *Error
	if !errors.As(err, &e) || e.Class != ClassLimit || !strings.Contains(e.Message, "step safety limit") {
		t.Fatalf("error %v, want the step limit", err)
	}
	wantState(t, r, "R.A", map[string]int64{"spin": 0})
}

// A pseudo self loop that changes nothing repeats its configuration and is
// pruned: the candidate fails and the leaf stays.
func TestRepeatedConfigurationIsPruned(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("n", 0)
	a, p := b.state(b.m.Root, "A"), b.pseudo(b.m.Root, "P")
	b.action(a, model.RoleDuring, "", "n = n + 1")
	b.trans(b.m.Root, nil, a, "", "", "")
	b.trans(b.m.Root, a, p, "R.A.Go", "", "")
	b.trans(b.m.Root, p, p, "", "", "")
	r := b.runtime(Options{})
	step(t, r)
	step(t, r, "Go")
	wantState(t, r, "R.A", map[string]int64{"n": 2})
}

// Event inputs resolve relative to the current state and its ancestors.
func TestEventResolution(t *testing.T) {
	b := newBuilder(t, "R")
	sys := b.state(b.m.Root, "Sys")
	a := b.state(sys, "A")
	b.trans(b.m.Root, nil, sys, "", "", "")
	b.trans(sys, nil, a, "", "", "")
	for _, p := range []string{"R.Sys.A.Local", "R.Sys.Mid", "R.Top"} {
		b.event(p)
	}
	r := b.runtime(Options{})
	step(t, r)
	for in, want := range map[string]string{
		"Local": "R.Sys.A.Local", "R.Sys.A.Local": "R.Sys.A.Local", ".Mid": "R.Sys.Mid",
		"..Top": "R.Top", "/Top": "R.Top", "/Sys.Mid": "R.Sys.Mid",
	} {
		i, err := r.ResolveEvent(in)
		if err != nil || r.EventPath(i) != want {
			t.Errorf("%q resolves to %v (%v), want %s", in, i, err, want)
		}
	}
	for _, in := range []string{"Mid", "...Top", "/R.Top", "A.Local"} {
		if _, err := r.ResolveEvent(in); err == nil {
			t.Errorf("%q resolves; want an error", in)
		}
	}
}

// A hot start into a composite waits for its initial transition, without
// the composite's plain during before; abstract calls reach the handlers
// with their context, only for committed cycles.
func TestHotStartAndHandlers(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("g", 0)
	gate := b.state(b.m.Root, "Gate")
	armed := b.state(gate, "Armed")
	b.action(gate, model.RoleDuringBefore, "", "g = 1")
	b.action(armed, model.RoleEnter, "OnArm", "")
	b.trans(b.m.Root, nil, gate, "", "", "")
	b.trans(gate, nil, armed, "R.Gate.Unlock", "", "")
	var got []AbstractCall
	rec := HandlerFunc(func(c *AbstractCall) error { got = append(got, *c); return nil })
	r := b.runtime(Options{InitialState: "R.Gate", InitialVars: map[string]expr.Value{"g": expr.IntVal(5)},
		Handlers: map[string]Handler{"R.Gate.Armed.OnArm": rec}})
	if c := step(t, r); !c.Delta || len(got) != 0 {
		t.Fatalf("first cycle: delta %v, calls %v", c.Delta, got)
	}
	c := step(t, r, "R.Gate.Unlock")
	wantState(t, r, "R.Gate.Armed", map[string]int64{"g": 5})
	want := AbstractCall{Action: "R.Gate.Armed.OnArm", Stage: StageEnter, Role: model.RoleEnter, State: "R.Gate.Armed", ActiveLeaf: "R.Gate.Armed",
		Vars: map[string]expr.Value{"g": expr.IntVal(5)}}
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) || !reflect.DeepEqual(c.Calls, got) {
		t.Errorf("calls %+v, want %+v", got, want)
	}
}

// A failing handler fails its cycle in Raise mode and is recorded in Log mode.
func TestHandlerErrorModes(t *testing.T) {
	for _, mode := range []ErrorMode{Raise, Log} {
		b := newBuilder(t, "R")
		a := b.state(b.m.Root, "A")
		b.action(a, model.RoleEnter, "Boom", "")
		b.trans(b.m.Root, nil, a, "", "", "")
		fail := HandlerFunc(func(*AbstractCall) error { return errors.New("device offline") })
		r := b.runtime(Options{Handlers: map[string]Handler{"R.A.Boom": fail}, ErrorMode: mode})
		c, err := r.Cycle(nil)
		var e *Error
		switch mode {
		case Raise:
			if !errors.As(err, &e) || e.Class != ClassHandler || r.State() != "R" {
				t.Errorf("raise: %v, state %s", err, r.State())
			}
		case Log:
			if err != nil || len(c.HandlerErrors) != 1 || r.State() != "R.A" {
				t.Errorf("log: %v, %v, state %s", err, c.HandlerErrors, r.State())
			}
		}
	}
}

func TestInitErrors(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("n", 0)
	b.floatVar("f", "1.0 / 0.0")
	a := b.state(b.m.Root, "A")
	b.trans(b.m.Root, nil, a, "", "", "")
	for _, tc := range []struct {
		opts Options
		text string
	}{
		{Options{}, "the initial value of 'f' cannot be computed: division by zero"},
		{Options{InitialState: "R.A", InitialVars: map[string]expr.Value{"n": expr.BoolVal(true), "f": expr.RealVal(1)}}, "must not be bool"},
		{Options{InitialState: "R.A", InitialVars: map[string]expr.Value{"n": expr.IntVal(1)}}, "lacks f"},
		{Options{InitialState: "R.X", InitialVars: map[string]expr.Value{"n": expr.IntVal(1), "f": expr.RealVal(1)}}, "no such state"},
		{Options{InitialVars: map[string]expr.Value{"n": expr.RealVal(1.5), "f": expr.RealVal(1)}}, "cannot assign float 1.5"},
	} {
		_, err := New(b.m, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%+v: error %v, want %q", tc.opts, err, tc.text)
		}
	}
	r := b.runtime(Options{InitialVars: map[string]expr.Value{"f": expr.IntVal(2)}})
	if v := r.Vars()["f"]; v != expr.RealVal(2) {
		t.Errorf("f = %v, want the float 2.0", v)
	}
}

// A ref reports its own path as the call's named ref only when it is
// named; the action record names the resolved action.
func TestRefCallSite(t *testing.T) {
	b := newBuilder(t, "R")
	lib, a := b.state(b.m.Root, "Lib"), b.state(b.m.Root, "A")
	hook := b.action(lib, model.RoleEnter, "Hook", "")
	b.ref(a, model.RoleEnter, "Mine", hook)
	b.ref(a, model.RoleEnter, "", hook)
	b.trans(b.m.Root, nil, a, "", "", "")
	c := step(t, b.runtime(Options{}))
	if len(c.Calls) != 2 || c.Calls[0].NamedRef != "R.A.Mine" || c.Calls[1].NamedRef != "" || c.Calls[0].Action != "R.Lib.Hook" {
		t.Errorf("calls %+v", c.Calls)
	}
	want := []Action{
		{Role: model.RoleEnter, State: "R.A", Name: "Mine", Ref: "R.Lib.Hook", Abstract: true},
		{Role: model.RoleEnter, State: "R.A", Ref: "R.Lib.Hook", Abstract: true},
	}
	if !reflect.DeepEqual(c.Actions, want) {
		t.Errorf("actions %+v, want %+v", c.Actions, want)
	}
}

// Operations without a value on non-finite floats (which only initial
// values give) and on huge shift counts are expression errors that leave
// the runtime unchanged, with the message the generated code gives
// (docs/fcstm.md) — not internal failures of the evaluator.
func TestNonFiniteAndHugeShiftRollBack(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("n", 1)
	b.floatVar("f", "1.0")
	a := b.state(b.m.Root, "A")
	b.trans(b.m.Root, nil, a, "", "", "")
	b.trans(b.m.Root, a, a, "R.A.Floor", "", "n = floor(f)")
	b.trans(b.m.Root, a, a, "R.A.Round", "", "n = round(-f)")
	b.trans(b.m.Root, a, a, "R.A.Sin", "", "f = sin(f)")
	b.trans(b.m.Root, a, a, "R.A.Shl", "", "n = 1 << 9223372036854775807")
	b.trans(b.m.Root, a, a, "R.A.Shr", "", "n = n >> 9223372036854775807")
	for _, tc := range []struct {
		f           float64
		event, text string
	}{
		{math.Inf(1), "Floor", "operation assignment to 'n' evaluation failed: cannot convert float +Inf to an integer"},
		{math.Inf(1), "Round", "operation assignment to 'n' evaluation failed: cannot convert float -Inf to an integer"},
		{math.NaN(), "Floor", "operation assignment to 'n' evaluation failed: cannot convert float NaN to an integer"},
		{math.Inf(-1), "Sin", "operation assignment to 'f' evaluation failed: math domain error in sin(-Inf)"},
		{math.NaN(), "Sin", "operation assignment to 'f' evaluation failed: float overflow in sin(NaN)"},
		{1, "Shl", "operation assignment to 'n' evaluation failed: integer result too large (over 65536 bits) in 1 << 9223372036854775807"},
	} {
		r := b.runtime(Options{InitialVars: map[string]expr.Value{"f": expr.RealVal(tc.f)}})
		step(t, r)
		_, err := r.Cycle([]string{tc.event})
		var e *Error
		if !errors.As(err, &e) || e.Class != ClassExpression || e.Message != tc.text {
			t.Errorf("%s with f = %v: error %v, want class %s with %q", tc.event, tc.f, err, ClassExpression, tc.text)
		}
		wantState(t, r, "R.A", map[string]int64{"n": 1})
		if f, _ := r.Vars()["f"].Float(); math.Float64bits(f) != math.Float64bits(tc.f) {
			t.Errorf("%s: f = %v after a failed cycle, want %v", tc.event, f, tc.f)
		}
	}
	// A right shift by a huge count floors, as Python's does.
	r := b.runtime(Options{})
	step(t, r)
	if _, err := r.Cycle([]string{"Shr"}); err != nil {
		t.Fatal(err)
	}
	wantState(t, r, "R.A", map[string]int64{"n": 0})
}

// Of several unknown initial variables, New names the first by name on
// every run.
func TestInitUnknownVarsNamesTheFirst(t *testing.T) {
	b := newBuilder(t, "R")
	b.intVar("n", 0)
	b.trans(b.m.Root, nil, b.state(b.m.Root, "A"), "", "", "")
	vars := map[string]expr.Value{}
	for _, name := range []string{"zz", "yy", "aa", "mm", "qq", "bb"} {
		vars[name] = expr.IntVal(1)
	}
	for range 30 {
		if _, err := New(b.m, Options{InitialVars: vars}); err == nil || !strings.Contains(err.Error(), "initial_vars['aa']") {
			t.Fatalf("error %v, want aa named", err)
		}
	}
}
