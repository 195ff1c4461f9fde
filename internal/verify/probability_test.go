package verify

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/report"
)

// chainModel is a chain of k fair coin flips: heads moves on, tails loses,
// and after k heads the target is entered, so P(reach OK) = 2^-k exactly.
func chainModel(k int, op, p string) string {
	return strings.NewReplacer("@K", strconv.Itoa(k), "@OP", op, "@PV", p).Replace(`{"schemaVersion":1,"init":"A",
	"states":[{"id":"A"},{"id":"OK","terminal":true},{"id":"LOST","terminal":true}],
	"transitions":[{"from":"A","event":"heads","to":"A","guard":{"variable":"i","op":"<","value":@K},"updates":[{"variable":"i","op":"inc"}]},
	{"from":"A","event":"tails","to":"LOST","guard":{"variable":"i","op":"<","value":@K}},
	{"from":"A","event":"win","to":"OK","guard":{"variable":"i","op":">=","value":@K}}],
	"variables":[{"name":"i","kind":"integer","init":0}],
	"invariants":[{"id":"p","description":"d","kind":"probability","target":"OK","op":"@OP","p":@PV}]}`)
}

// P(reach LOST) in the same chain is 1 - 2^-k: below 1, however close.
func TestProbabilityChainNearOne(t *testing.T) {
	for _, k := range []int{60, 1100, 10000} {
		for _, c := range []struct{ op, p, want string }{
			{"<", "1", "holds"}, {">=", "1", "violated"}, {"<=", "1", "holds"}, {">", "1", "violated"},
			{">=", "0.9999999999", map[bool]string{true: "holds", false: "violated"}[k > 34]},
		} {
			src := strings.Replace(chainModel(k, c.op, c.p), `"target":"OK"`, `"target":"LOST"`, 1)
			if !strings.Contains(src, `"target":"LOST"`) {
				t.Fatal("the target was not replaced")
			}
			if got := verdict(decideProbMax(t, src, 1<<16)); got != c.want {
				t.Errorf("1 - 2^-%d %s %s: %s, want %s (%s)", k, c.op, c.p, got, c.want, probText(decideProbMax(t, src, 1<<16).prob))
			}
		}
	}
}

// verdict is "holds", "violated" or "undecided".
func verdict(out invariantOutcome) string {
	switch {
	case out.undecided:
		return "undecided"
	case out.violated:
		return "violated"
	}
	return "holds"
}

// A probability that is positive but far below what a double can hold
// (2^-10000) is still positive: `> 0` holds and `<= 0` is violated, while
// a bound far above it (1e-10) is decided as the arithmetic supports.
func TestProbabilityTinyChain(t *testing.T) {
	for _, k := range []int{1, 10, 60, 1100, 10000} {
		for _, c := range []struct{ op, p, want string }{
			{">", "0", "holds"}, {">=", "0", "holds"}, {"<=", "0", "violated"}, {"<", "0", "violated"},
			{"<=", "1e-10", map[bool]string{true: "holds", false: "violated"}[k > 34]},
			{"<", "1", "holds"}, {"<=", "1", "holds"}, {">=", "1", "violated"}, {">", "1", "violated"},
		} {
			if k == 1 && c.p == "1e-10" {
				continue
			}
			t.Run(fmt.Sprintf("2^-%d %s %s", k, c.op, c.p), func(t *testing.T) {
				out := decideProbMax(t, chainModel(k, c.op, c.p), 1<<16)
				if got := verdict(out); got != c.want {
					t.Fatalf("P = 2^-%d %s %s: %s, want %s (%s; %s %d)", k, c.op, c.p, got, c.want, probText(out.prob), out.capKind, out.cap)
				}
			})
		}
	}
}

// At p = 0 and p = 1 the answer comes from the graph, not from numbers:
// an almost-sure target (a walk that escapes with a tiny weight from every
// runtime) has P = 1 exactly, an unreachable one P = 0 exactly.
func TestProbabilityQualitativeEdges(t *testing.T) {
	walk := func(op, p string) string {
		return `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"C","terminal":true},{"id":"Z"}],
		"transitions":[{"from":"A","event":"up","to":"A","guard":{"variable":"x","op":"<","value":600},"updates":[{"variable":"x","op":"inc"}]},
		{"from":"A","event":"down","to":"A","guard":{"variable":"x","op":">","value":0},"updates":[{"variable":"x","op":"dec"}]},
		{"from":"A","event":"escape","to":"C","weight":0.000001},{"from":"Z","event":"z","to":"Z"}],
		"variables":[{"name":"x","kind":"integer","init":0,"min":0,"max":600}],
		"invariants":[{"id":"p","description":"d","kind":"probability","target":"` + map[bool]string{true: "Z", false: "C"}[strings.HasPrefix(op, "z")] + `","op":"` + strings.TrimPrefix(op, "z") + `","p":` + p + `}]}`
	}
	for _, c := range []struct{ op, p, want string }{
		{">=", "1", "holds"}, {">", "0.999999999", "holds"}, {"<", "1", "violated"}, {"<=", "0.9999999999", "violated"},
		{"z<=", "0", "holds"}, {"z>", "0", "violated"}, {"z<", "0.000000001", "holds"}, {"z>=", "0", "holds"},
	} {
		t.Run(c.op+" "+c.p, func(t *testing.T) {
			out := decideProb(t, walk(c.op, c.p))
			if got := verdict(out); got != c.want {
				t.Fatalf("%s %s: %s, want %s (%s)", c.op, c.p, got, c.want, probText(out.prob))
			}
		})
	}
}

// Every operator at p = 0, p = 1 and just beside the exact value of a
// fair coin (1/2): the exact rational decides, never a tolerance.
func TestProbabilityOperatorsNearBound(t *testing.T) {
	coin := func(op, p string) string {
		return `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B"},{"id":"C","terminal":true}],
		"transitions":[{"from":"A","event":"heads","to":"C"},{"from":"A","event":"tails","to":"B"},{"from":"B","event":"stay","to":"B"}],
		"invariants":[{"id":"p","description":"d","kind":"probability","target":"C","op":"` + op + `","p":` + p + `}]}`
	}
	want := map[string]map[string]string{ // p -> op -> verdict for P = 1/2
		"0":            {">=": "holds", ">": "holds", "<=": "violated", "<": "violated"},
		"1":            {">=": "violated", ">": "violated", "<=": "holds", "<": "holds"},
		"0.5":          {">=": "holds", ">": "violated", "<=": "holds", "<": "violated"},
		"0.5000000001": {">=": "violated", ">": "violated", "<=": "holds", "<": "holds"},
		"0.4999999999": {">=": "holds", ">": "holds", "<=": "violated", "<": "violated"},
	}
	for p, ops := range want {
		for op, w := range ops {
			if got := verdict(decideProb(t, coin(op, p))); got != w {
				t.Errorf("1/2 %s %s: %s, want %s", op, p, got, w)
			}
		}
	}
}

// A bracket that did not close is still sound and still decides what it
// excludes: the fair walk on 1..999 (too large a component for rationals,
// too slow for 20000 sweeps) has P(ruin from 1) = 998/999 inside the
// bracket; a bound inside the bracket is undecided, one below its lower
// end holds (the old value iteration left every `>=` undecided here).
func TestProbabilityBracketNotConverged(t *testing.T) {
	truth := 998.0 / 999.0
	src := func(op, p string) string {
		return strings.Replace(gamblersRuin(999, "1", "1"), `"op":">=","p":0`, `"op":"`+op+`","p":`+p, 1)
	}
	out := decideProb(t, src(">=", "0.998998998998999"))
	pr := out.prob
	if pr == nil || pr.method != methodInterval || pr.converged || pr.lo > truth || pr.hi < truth {
		t.Fatalf("bracket %s, converged %v; want an unconverged interval around %v", probText(pr), pr != nil && pr.converged, truth)
	}
	if verdict(out) != "undecided" {
		t.Errorf(">= 998/999 inside the bracket: %s", verdict(out))
	}
	t.Logf("bracket %s after %d sweeps", probText(pr), pr.sweeps)
	below := strconv.FormatFloat(pr.lo/2, 'g', -1, 64)
	if got := verdict(decideProb(t, src(">=", below))); got != "holds" {
		t.Errorf(">= %s (below the bracket %s): %s, want holds", below, probText(pr), got)
	}
	if got := verdict(decideProb(t, src("<", below))); got != "violated" {
		t.Errorf("< %s (below the bracket %s): %s, want violated", below, probText(pr), got)
	}
}

func probText(pr *probResult) string {
	if pr == nil {
		return "no value"
	}
	return fmt.Sprintf("%s by %s", pr.text(), pr.method)
}

// A bracket that contains the bound decides nothing, whatever the
// operator; one that excludes it decides every operator.
func TestProbabilityBracketDecide(t *testing.T) {
	pr := &probResult{lo: 0.3 - 1e-12, hi: 0.3 + 1e-12, positive: true, belowOne: true}
	for _, op := range []string{">=", ">", "<=", "<"} {
		if holds, violated := pr.decide(op, ratWeight(0.3)); holds || violated {
			t.Errorf("[0.3±1e-12] %s 0.3: holds %v violated %v, want neither", op, holds, violated)
		}
	}
	want := map[string][2]bool{">=": {true, false}, ">": {true, false}, "<=": {false, true}, "<": {false, true}}
	for op, w := range want {
		if holds, violated := pr.decide(op, ratWeight(0.2999)); holds != w[0] || violated != w[1] {
			t.Errorf("[0.3±1e-12] %s 0.2999: holds %v violated %v, want %v", op, holds, violated, w)
		}
	}
	// The open end at 0: P > 0 is known from the graph.
	tiny := &probResult{lo: 0, hi: 1e-300, positive: true, belowOne: true}
	if holds, _ := tiny.decide(">", new(big.Rat)); !holds {
		t.Error("(0, 1e-300] > 0 not decided as holding")
	}
	if _, violated := tiny.decide("<=", new(big.Rat)); !violated {
		t.Error("(0, 1e-300] <= 0 not decided as violated")
	}
}

// A converged bracket that holds the bound is undecided without claiming
// a cap: the message says the bracket holds the bound, and the run is not
// marked truncated.
func TestProbabilityConvergedBracketHoldsBound(t *testing.T) {
	first := decideProb(t, gamblersRuin(100, "0.45", "0.55")).prob
	if first == nil || first.method != methodInterval || !first.converged {
		t.Fatalf("want a converged bracket, got %s", probText(first))
	}
	mid := strconv.FormatFloat(first.lo+(first.hi-first.lo)/2, 'g', -1, 64)
	src := strings.Replace(gamblersRuin(100, "0.45", "0.55"), `"op":">=","p":0`, `"op":">=","p":`+mid, 1)
	r := run(t, src, 0)
	var f *report.Finding
	for i, x := range check(r, "A13").Findings {
		if x.Code == "A13_UNDECIDED" {
			f = &check(r, "A13").Findings[i]
		}
	}
	if f == nil || !strings.Contains(f.Message, "still contains the bound") || f.Evidence.Get("capKind") != "probabilityBracket" {
		t.Fatalf(">= %s inside %s: %+v", mid, probText(first), check(r, "A13").Findings)
	}
	if r.Truncated {
		t.Error("a bracket that holds the bound marked the run truncated")
	}
}

// A violated bound is printed as the model gives it: 1e-10 is not
// "0.000000", and 0.4999999999 is not "0.500000".
func TestProbabilityBoundPrintedAsGiven(t *testing.T) {
	coin := func(op, p string) string {
		return `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B"},{"id":"C","terminal":true}],
		"transitions":[{"from":"A","event":"heads","to":"C"},{"from":"A","event":"tails","to":"B"},{"from":"B","event":"stay","to":"B"}],
		"invariants":[{"id":"p","description":"d","kind":"probability","target":"C","op":"` + op + `","p":` + p + `}]}`
	}
	for _, p := range []string{"1e-10", "0.4999999999", "0.25"} {
		out := decideProb(t, coin("<=", p))
		if !out.violated {
			t.Fatalf("1/2 <= %s: %s, want violated", p, verdict(out))
		}
		if want := "violates <= " + p; !strings.HasSuffix(out.what, want) {
			t.Errorf("1/2 <= %s: %q does not end with %q", p, out.what, want)
		}
	}
}
