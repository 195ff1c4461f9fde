package bmc

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/trace"
	"github.com/stateproof/stateproof/internal/z3"
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

// fair * makes every event weakly fair. The storm stays unfair (tick is
// starved), so GREEN-or-OFF is still without a counterexample. The cycle
// that avoids OFF stays fair too: power_off is enabled in RED on every
// round but disabled in GREEN and YELLOW, so it is not continuously
// enabled — weak fairness, not strong. The report lists every event.
func TestFairAllEvents(t *testing.T) {
	_, sys := loadModel(t, brokenLight)
	r := solve(t, sys, bindQuery(t, sys, `check must_reach <= 10 fair *: active("GREEN") || active("OFF");`), Options{})
	if r.Outcome != "incomplete" || r.Trace != nil {
		t.Fatalf("storm: outcome %s, want incomplete", r.Outcome)
	}
	if got := strings.Join(r.Fair, ","); got != "button,power_off,tick" {
		t.Errorf("Fair = %q", got)
	}
	r = solve(t, sys, bindQuery(t, sys, `check must_reach <= 10 fair *: active("OFF");`), Options{})
	if r.Outcome != "property_violated" || r.LoopStart == nil {
		t.Fatalf("cycle: outcome %s, want a lasso", r.Outcome)
	}
	checkLasso(t, r.Trace, *r.LoopStart, "tick")
	visits := map[string]bool{}
	for _, f := range r.Trace.Frames[*r.LoopStart:] {
		visits[f.State] = true
	}
	if !visits["GREEN"] {
		t.Errorf("the loop never leaves RED, so power_off would be starved: %v", visits)
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

// TestDifferentialFairMustReach: on generated models, `must_reach <= N
// fair {e}: active(s)` finds a counterexample exactly when a brute force
// over the runtime's own runs of N steps finds a fair lasso avoiding s
// (the runtime's Enabled is the fairness condition's "enabled"), and
// every lasso found replays.
func TestDifferentialFairMustReach(t *testing.T) {
	const bound = 4
	models := 60
	if testing.Short() {
		models = 15
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	lassos, none := 0, 0
	for seed := uint64(1); seed <= uint64(models); seed++ {
		m, sys := decodeModel(t, gen.Random(seed))
		mc := runtime.Compile(m)
		for fe := range sys.Events {
			for _, loc := range sys.Locations {
				src := `check must_reach <= ` + strconv.Itoa(bound) + ` fair {` + strconv.Quote(sys.Events[fe].Name) + `}: active(` + strconv.Quote(loc.Name) + `);`
				q := bindQuery(t, sys, src)
				r, err := Solve(ctx, sys, q, Options{})
				if err != nil {
					t.Fatalf("seed %d %s: %v", seed, src, err)
				}
				want := bruteFairLasso(mc, bound, mc.EventIndex(sys.Events[fe].Name), avoids(loc.ID))
				if got := r.Outcome == "property_violated"; got != want {
					t.Fatalf("seed %d %s: bmc says %s, brute force says lasso=%v\n%s", seed, src, r.Outcome, want, gen.Random(seed))
				}
				if !want {
					none++
				}
				if !want && r.Outcome != "incomplete" {
					t.Fatalf("seed %d %s: outcome %s without a lasso, want incomplete", seed, src, r.Outcome)
				}
				if r.Trace != nil {
					lassos++
					if rep := mc.Replay(r.Trace); !rep.OK() {
						t.Fatalf("seed %d %s: replay mismatches %v", seed, src, rep.Mismatches)
					}
				}
			}
		}
	}
	if lassos == 0 || none == 0 {
		t.Fatalf("%d checks with a fair lasso, %d without: the test compares one side only", lassos, none)
	}
	t.Logf("%d checks with a fair lasso, %d without", lassos, none)
}

// bruteFairLasso enumerates every run of n steps of the runtime (a dead
// end stutters) and reports whether one is a lasso — its last runtime
// equals the one at some l < n — on whose loop fair is taken or, at some
// runtime, not enabled, and whose states at steps 0..n-1 violate: viol
// gets them and l.
func bruteFairLasso(mc *runtime.Machine, n, fair int, viol func(states []int, l int) bool) bool {
	type pos struct {
		r     []int64
		event int // the event of the step from here, -1 for a stutter
	}
	var buf runtime.StepBuffer
	var walk func(run []pos, r []int64) bool
	walk = func(run []pos, r []int64) bool {
		if len(run) == n {
			states := make([]int, n)
			for i, p := range run {
				states[i] = int(p.r[0])
			}
			for l := 0; l < n; l++ {
				if mc.Key(run[l].r) != mc.Key(r) || !viol(states, l) {
					continue
				}
				for _, p := range run[l:] {
					if p.event == fair || !mc.Enabled(p.r, fair) {
						return true
					}
				}
			}
			return false
		}
		moved := false
		for e := range mc.Events {
			// Step reuses buf, and the walk below steps again: copy the
			// outcomes first.
			var nexts [][]int64
			for _, o := range mc.Step(r, e, &buf) {
				nexts = append(nexts, slices.Clone(o.Next))
			}
			for _, next := range nexts {
				moved = true
				if walk(append(slices.Clone(run), pos{r, e}), next) {
					return true
				}
			}
		}
		if !moved {
			return walk(append(run, pos{r, -1}), r)
		}
		return false
	}
	return walk(nil, mc.Initial(make([]int64, mc.Width())))
}

// avoids is the must_reach violation: no state at 0..n-1 is s.
func avoids(s int) func([]int, int) bool {
	return func(states []int, _ int) bool { return !slices.Contains(states, s) }
}

// unanswered is the response violation `trigger active(a) -> within w
// active(c)` on the lasso: positions past n-1 are loop positions again.
func unanswered(a, c, w int) func([]int, int) bool {
	return func(states []int, l int) bool {
		n := len(states)
		at := func(j int) int {
			for j >= n {
				j -= n - l
			}
			return states[j]
		}
		for i := 0; i < n; i++ {
			if states[i] != a {
				continue
			}
			met := false
			for k := 1; k <= w; k++ {
				met = met || at(i+k) == c
			}
			if !met {
				return true
			}
		}
		return false
	}
}

// TestDifferentialFairResponse: the same comparison for `response` with
// windows shorter than, equal to and longer than the loop can be.
func TestDifferentialFairResponse(t *testing.T) {
	const bound = 4
	models := 25
	if testing.Short() {
		models = 8
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	counts := map[bool]int{}
	for seed := uint64(1); seed <= uint64(models); seed++ {
		m, sys := decodeModel(t, gen.Random(seed))
		mc := runtime.Compile(m)
		fair := sys.Events[int(seed)%len(sys.Events)].Name
		for _, a := range sys.Locations {
			for _, c := range sys.Locations {
				for _, w := range []int{1, 3, 9} {
					src := fmt.Sprintf("check response <= %d fair {%q}: trigger active(%q) -> within %d active(%q);", bound, fair, a.Name, w, c.Name)
					r, err := Solve(ctx, sys, bindQuery(t, sys, src), Options{})
					if err != nil {
						t.Fatalf("seed %d %s: %v", seed, src, err)
					}
					want := bruteFairLasso(mc, bound, mc.EventIndex(fair), unanswered(a.ID, c.ID, w))
					counts[want]++
					if got := r.Outcome == "property_violated"; got != want || (!want && r.Outcome != "incomplete") {
						t.Fatalf("seed %d %s: bmc says %s, brute force says lasso=%v\n%s", seed, src, r.Outcome, want, gen.Random(seed))
					}
					if r.Trace != nil {
						if rep := mc.Replay(r.Trace); !rep.OK() {
							t.Fatalf("seed %d %s: replay mismatches %v", seed, src, rep.Mismatches)
						}
					}
				}
			}
		}
	}
	if counts[true] == 0 || counts[false] == 0 {
		t.Fatalf("%v: the test compares one side only", counts)
	}
	t.Logf("%d checks with a fair lasso, %d without", counts[true], counts[false])
}
