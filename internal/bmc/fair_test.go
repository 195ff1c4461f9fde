package bmc

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/trace"
)

const brokenLight = "../../examples/broken/a9-traffic-light-no-fairness.json"

func bindQuery(t *testing.T, sys *sts.System, src string) *query.Query {
	t.Helper()
	q, err := query.Parse("q.fbmcq", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := query.Bind(q, sys, query.BindOptions{}); err != nil {
		t.Fatal(err)
	}
	return q
}

// The broken traffic light is refuted by pressing the button in RED again
// and again. With tick weakly fair that run is unfair (tick is enabled in
// RED throughout and never taken), and every other run reaches GREEN or
// OFF, so there is no fair lasso at any bound: the answer is undecided
// (incomplete, exit 3), never property_satisfied.
func TestFairMustReachStormIsNotACounterexample(t *testing.T) {
	_, sys := loadModel(t, brokenLight)
	const body = `active("GREEN") || active("OFF")`
	plain := solve(t, sys, bindQuery(t, sys, `check must_reach <= 8: `+body+`;`), Options{})
	if plain.Outcome != "property_violated" {
		t.Fatalf("without fairness: outcome %s, want the storm counterexample", plain.Outcome)
	}
	for _, n := range []int{1, 4, 12} {
		src := `check must_reach <= ` + itoa(n) + ` fair {"tick"}: ` + body + `;`
		r := solve(t, sys, bindQuery(t, sys, src), Options{})
		if r.Outcome != "incomplete" || r.Satisfied != nil || r.Trace != nil || r.IncompleteReason != noFairLasso {
			t.Fatalf("bound %d: outcome %s, satisfied %s, reason %q; want incomplete with no trace", n, r.Outcome, deref(r.Satisfied), r.IncompleteReason)
		}
		if code := ExitCode(r.Outcome, true); code != 3 {
			t.Errorf("bound %d: exit %d, want 3", n, code)
		}
	}
	// A fair event that is not starved does not excuse the storm: with
	// button fair instead, pressing forever is fair and refutes.
	r := solve(t, sys, bindQuery(t, sys, `check must_reach <= 4 fair {"button"}: `+body+`;`), Options{})
	if r.Outcome != "property_violated" || r.LoopStart == nil {
		t.Fatalf("fair button: outcome %s, want a lasso", r.Outcome)
	}
}

// The light going round RED, GREEN, YELLOW forever never reaches OFF, and
// takes tick on its loop: a genuine fair lasso. It is found, its last
// frame is its loop start again, tick is taken on the loop, and the
// runtime replays it.
func TestFairMustReachLassoReplays(t *testing.T) {
	m, sys := loadModel(t, brokenLight)
	for _, src := range []string{
		`check must_reach <= 10 fair {"tick"}: active("OFF");`,
		`check response <= 10 fair {"tick"}: trigger active("YELLOW") -> within 30 active("OFF");`,
	} {
		r := solve(t, sys, bindQuery(t, sys, src), Options{})
		if r.Outcome != "property_violated" || r.Trace == nil || r.LoopStart == nil {
			t.Fatalf("%s: outcome %s, want a fair lasso", src, r.Outcome)
		}
		checkLasso(t, r.Trace, *r.LoopStart, "tick")
		if rep := runtime.Compile(m).Replay(r.Trace); !rep.OK() {
			t.Fatalf("%s: replay mismatches: %v", src, rep.Mismatches)
		}
		rep := &Report{ModelPath: brokenLight, Query: src, Result: r}
		var b strings.Builder
		if err := rep.WriteText(&b); err != nil || !strings.Contains(b.String(), "repeat forever") {
			t.Errorf("text report has no cycle line:\n%s", b.String())
		}
		if w := rep.JSON()["witness"].(map[string]any); w["loop_start"] != *r.LoopStart {
			t.Errorf("witness loop_start = %v", w["loop_start"])
		}
	}
}

// A bounded response under fairness is judged on the infinite lasso: a
// window that runs past the bound is followed round the loop. RED is
// always answered by GREEN or OFF within 30 positions on a fair lasso of
// at most 10 steps (the loop itself must pass GREEN), so there is no
// counterexample and, under fairness, no verdict either.
func TestFairResponseNoLassoIsUndecided(t *testing.T) {
	_, sys := loadModel(t, brokenLight)
	src := `check response <= 10 fair {"tick"}: trigger active("RED") -> within 30 active("GREEN") || active("OFF");`
	r := solve(t, sys, bindQuery(t, sys, src), Options{})
	if r.Outcome != "incomplete" || r.Satisfied != nil || r.Trace != nil {
		t.Fatalf("outcome %s, want incomplete with no trace", r.Outcome)
	}
	// Without fairness the button storm leaves the obligation open past
	// the horizon: also incomplete, but by the tail check.
	plain := solve(t, sys, bindQuery(t, sys, `check response <= 10: trigger active("RED") -> within 30 active("GREEN") || active("OFF");`), Options{})
	if plain.Outcome != "incomplete" || plain.IncompleteStatus != "sat" {
		t.Fatalf("without fairness: outcome %s, tail %s", plain.Outcome, plain.IncompleteStatus)
	}
	// A window shorter than the loop is a finite violation on the fair
	// lasso (a storm of presses inside a fair loop delays GREEN).
	r = solve(t, sys, bindQuery(t, sys, `check response <= 10 fair {"tick"}: trigger active("RED") -> within 2 active("GREEN");`), Options{})
	if r.Outcome != "property_violated" || r.LoopStart == nil {
		t.Fatalf("short window: outcome %s, want a lasso", r.Outcome)
	}
}

// checkLasso asserts what makes a trace a fair lasso, from the decoded
// trace alone: the last frame is the loop start's frame again, and the
// fair event is taken on a loop step.
func checkLasso(t *testing.T, tr *trace.Trace, l int, fair string) {
	t.Helper()
	n := len(tr.Steps)
	a, b := tr.Frames[n], tr.Frames[l]
	if a.StateID != b.StateID || !slices.Equal(a.Vars, b.Vars) {
		t.Fatalf("frame %d %+v is not frame %d %+v", n, a, l, b)
	}
	for _, s := range tr.Steps[l:] {
		if slices.Contains(s.Consumed, fair) {
			return
		}
	}
	t.Fatalf("%s is not taken on the loop %d..%d", fair, l, n-1)
}

func itoa(n int) string { return strconv.Itoa(n) }
