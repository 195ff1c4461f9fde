package lower

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest/reach"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// solveText checks the FBMCQ text q on the lowering of src.
func solveText(t *testing.T, src, text string, opts bmc.Options) *bmc.Result {
	t.Helper()
	sys := lower(t, src)
	q, err := query.Parse("q.fbmcq", text)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	if opts.TimeoutMS == 0 {
		opts.TimeoutMS = solveTimeoutMS
	}
	res, err := bmc.Solve(ctx, sys, q, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// raisingModel enters B on Go, whose during divides by zero: the runtime
// raises in the second cycle of every run that sends Go.
const raisingModel = `def int x = 0;
state R {
    state A;
    state B { during { x = 1 / x; } }
    [*] -> A;
    A -> B :: Go;
}
`

// TestRaisingContinuationIsUndecided: a run that raises within the bound
// makes an otherwise satisfied (or witness-less) query undecided, with
// the raising site in its reason; it never holds (issue 29 item 2).
func TestRaisingContinuationIsUndecided(t *testing.T) {
	for _, text := range []string{
		"check invariant <= 3: x == 0;",
		"check reach <= 3: active(\"R.B\");",
		"check forbid <= 2: x != 0;",
	} {
		for _, explain := range []string{"", "formal"} {
			res := solveText(t, raisingModel, text, bmc.Options{Explain: explain})
			if res.Satisfied != nil || res.Outcome != "unknown" {
				t.Errorf("%s (explain %q): outcome %s, verdict %v; want unknown (a run raises at test.fcstm:4)", text, explain, res.Outcome, res.Satisfied)
				continue
			}
			if !strings.Contains(res.Reason, "raises") || !strings.Contains(res.Reason, "test.fcstm:4:") {
				t.Errorf("%s: reason %q does not name the raising site", text, res.Reason)
			}
		}
	}
}

// TestNoRaiseWithinBoundKeepsVerdict: a raise beyond the bound (or never
// reached) leaves the verdict as it was.
func TestNoRaiseWithinBoundKeepsVerdict(t *testing.T) {
	// Go is needed twice before B (and its division) is entered.
	src := `def int x = 0;
state R {
    state A;
    state M;
    state B { during { x = 1 / x; } }
    [*] -> A;
    A -> M :: Go;
    M -> B :: Go;
}
`
	res := solveText(t, src, "check invariant <= 1: x == 0;", bmc.Options{})
	if res.Outcome != "property_satisfied" {
		t.Errorf("bound 1: outcome %s (%s), want property_satisfied", res.Outcome, res.Reason)
	}
	res = solveText(t, src, "check invariant <= 3: x == 0;", bmc.Options{})
	if res.Outcome != "unknown" {
		t.Errorf("bound 3: outcome %s, want unknown", res.Outcome)
	}
}

// TestDifferentialRaise: on random models with divisions, sqrt of values
// that go negative and int writebacks, `invariant <= N: true` holds in
// bmc exactly when no run of the runtime raises within N cycles (explored
// over every event subset): a raising run is never reported as holding.
func TestDifferentialRaise(t *testing.T) {
	const bound = 3
	models := 24 // sqrt makes each solve non-linear: about 1 s a model
	if testing.Short() {
		models = 8
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	q, err := query.Parse("q.fbmcq", "check invariant <= 3: true;")
	if err != nil {
		t.Fatal(err)
	}
	raising, decided := 0, 0
	for seed := uint64(1); seed <= uint64(models); seed++ {
		src := fcstmtest.RandomRaisingModel(seed)
		m := build(t, src)
		sys, err := Lower(m)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		cycle, raises, err := reach.FirstRaise(m, bound)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		res, err := bmc.Solve(ctx, sys, q, bmc.Options{TimeoutMS: solveTimeoutMS})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if raises {
			raising++
			if res.Outcome == "property_satisfied" || res.Satisfied != nil {
				t.Errorf("seed %d: the runtime raises in cycle %d, bmc says %s\n%s", seed, cycle, res.Outcome, src)
			}
		} else if res.RaiseSite != "" || res.Outcome == "property_violated" {
			// The solver may leave a non-linear (sqrt) check undecided,
			// but must not invent a raise or a counterexample.
			t.Errorf("seed %d: no run raises within %d cycles, bmc says %s (%s)\n%s\n%s", seed, bound, res.Outcome, res.Reason, src, dump(sys))
		} else if res.Outcome == "property_satisfied" {
			decided++
		}
	}
	if decided == 0 {
		t.Errorf("no model without a raise was decided")
	}
	if raising == 0 || raising == models {
		t.Errorf("%d of %d models raise: the generator no longer tells the two apart", raising, models)
	}
}

// TestRootActiveAtFrameZero: a fresh machine reads as its root (the
// runtime's State() before the first cycle), so active("R") holds at frame
// 0 and an invariant on it is not violated there; a child of the root is
// not active yet (issue 27 item 6).
func TestRootActiveAtFrameZero(t *testing.T) {
	src := "state R {\n    state A;\n    state B;\n    [*] -> A;\n    A -> B :: Go;\n}\n"
	if res := solveText(t, src, `check invariant <= 1: active("R");`, bmc.Options{}); res.Outcome != "property_satisfied" {
		t.Errorf("invariant active(R): %s at frame %v", res.Outcome, res.PropertyFrame)
	}
	if res := solveText(t, src, `check invariant <= 1: !active("R.A") || cycle > 0;`, bmc.Options{}); res.Outcome != "property_satisfied" {
		t.Errorf("R.A active at frame 0: %s", res.Outcome)
	}
	res := solveText(t, src, `check reach <= 0: active("R");`, bmc.Options{})
	if res.Outcome != "witness_found" {
		t.Errorf("reach <= 0 active(R): %s", res.Outcome)
	}
	m := build(t, src)
	if r, err := runtime.New(m, runtime.Options{}); err != nil || r.State() != "R" {
		t.Errorf("runtime before the first cycle: %v", err)
	}
}

// TestDeepNestingUndecided: 100 nested composites cannot run (every cycle
// raises the stack-depth limit error), so no trace exists at all: bmc
// gives no verdict (scenario_infeasible, whose explanation names the
// raising site) and its diagnostics locate the raise (issue 29 item 4).
func TestDeepNestingUndecided(t *testing.T) {
	var b strings.Builder
	b.WriteString("def int x = 0;\n")
	for i := range 100 {
		fmt.Fprintf(&b, "state S%d {\n", i)
	}
	b.WriteString("state L;\n[*] -> L;\n")
	for i := 99; i >= 0; i-- {
		if i < 99 {
			fmt.Fprintf(&b, "[*] -> S%d;\n", i+1)
		}
		b.WriteString("}\n")
	}
	for _, text := range []string{"check invariant <= 2: x == 0;", "check reach <= 2: x == 1;"} {
		res := solveText(t, b.String(), text, bmc.Options{})
		if res.Satisfied != nil || !slices.ContainsFunc(res.Diagnostics, func(d string) bool {
			return strings.HasPrefix(d, "runtime_error:raises_within_bound:test.fcstm:66:")
		}) {
			t.Errorf("%s: %s %v, want no verdict and the raise at test.fcstm:66", text, res.Outcome, res.Diagnostics)
		}
	}
}
