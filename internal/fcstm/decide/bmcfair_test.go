package decide_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/frontend/fcstmfront"
	"github.com/stateproof/stateproof/internal/ltl"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// bmc's fair clause on FCSTM models (docs/queries.md#fairness) reads
// "enabled" and "taken" as verify's ltl check does: an event is taken
// when present and tested by the cycle, enabled where some input has the
// cycle test it present. These tests hold bmc's fair lassos to the
// explicit machine and to the explicit engine's ltl verdicts.

// readFail reads events that do not fire: E1 leads into P, which refuses
// the cycle unless E2 is present too, and E3's guard never holds. So in
// A, E1 and E3 are taken (read present) on cycles that stay in A, and E2
// is enabled (with E1) but taken only on the cycle that leaves A.
const readFail = `def int x = 0;
state R {
    state A;
    state B;
    state C;
    pseudo state P;
    [*] -> A;
    A -> P : E1;
    P -> B : E2;
    A -> C : E3 + [x > 0];
}
`

// TestBMCFairFCSTM pins bmc's answers on small models, each reasoned out
// by hand, and checks each against the explicit engine's ltl verdict on
// the same property: a fair lasso (property_violated) where the ltl check
// is violated, no fair lasso (incomplete, never satisfied) where it holds.
func TestBMCFairFCSTM(t *testing.T) {
	ctx, err := z3.NewContext()
	if err != nil {
		t.Skip("no Z3:", err)
	}
	defer ctx.Close()
	for _, c := range []struct {
		src, check, ltl, outcome string
	}{
		// Staying in A starves Tick, which is enabled there.
		{ticker, `check must_reach <= 4 fair { "R.Tick" }: active("R.B");`, `F active("R.B")`, "incomplete"},
		{ticker, `check must_reach <= 4: active("R.B");`, "", "property_violated"},
		{ticker, `check response <= 4 fair *: trigger active("R.A") -> within 8 active("R.B");`, `G (active("R.A") -> X F active("R.B"))`, "incomplete"},
		// Going round A, B forever takes Tick and never ends: a fair lasso.
		{ticker, `check must_reach <= 4 fair *: terminated();`, `F false`, "property_violated"},
		// A, B, A, … is weakly fair to Go, which B does not enable.
		{intermittent, `check must_reach <= 5 fair { "R.T", "R.Go" }: active("R.G");`, `F active("R.G")`, "property_violated"},
		{intermittent, `check response <= 5 fair { "R.Go" }: trigger active("R.A") -> within 10 active("R.G");`, `G (active("R.A") -> X F active("R.G"))`, "property_violated"},
		// E2 is enabled in A (read with E1), and taken only by leaving A.
		{readFail, `check must_reach <= 4 fair { "R.E2" }: active("R.B");`, `F active("R.B")`, "incomplete"},
		{readFail, `check must_reach <= 4 fair *: active("R.B");`, `F active("R.B")`, "incomplete"},
		// E1 is read present on a cycle that stays in A (P refuses it):
		// taken, so staying in A is fair to it.
		{readFail, `check must_reach <= 4 fair { "R.E1" }: active("R.B");`, `F active("R.B")`, "property_violated"},
		// E3 is read present, its guard false: taken too.
		{readFail, `check must_reach <= 4 fair { "R.E3" }: active("R.C");`, `F active("R.C")`, "property_violated"},
		{readFail, `check must_reach <= 4 fair { "R.E1", "R.E3" }: active("R.B") || active("R.C");`, `F (active("R.B") || active("R.C"))`, "property_violated"},
	} {
		m, fm, mc := setup(t, c.src)
		q := bind(t, fm, c.check)
		rep, err := frontend.Check(ctx, fm, q, bmc.Options{TimeoutMS: 60000}, "")
		if err != nil {
			t.Fatalf("%s: %v", c.check, err)
		}
		r := rep.Result
		if r.Outcome != c.outcome {
			t.Errorf("%s: %s (%s), want %s", c.check, r.Outcome, r.IncompleteReason, c.outcome)
			continue
		}
		// The tracked shape (--explain) reads the same event tests.
		if tr, err := bmc.Solve(ctx, fm.System, q, bmc.Options{TimeoutMS: 60000, Explain: "formal"}); err != nil || tr.Outcome != c.outcome {
			t.Errorf("%s: tracked shape %v %v, want %s", c.check, tr, err, c.outcome)
		}
		if r.Outcome == "property_violated" {
			if !rep.Replay.OK() {
				t.Errorf("%s: replay mismatches %v", c.check, rep.Replay.Mismatches)
			}
			if len(q.Check.Fair) > 0 || q.Check.FairAll {
				checkFairLasso(t, c.check, m, mc, r, fairIndexes(mc, q.Check.FairAll, names(q.Check.Fair)), c.ltl)
			}
		}
		if c.ltl == "" {
			continue
		}
		want := map[string]string{"incomplete": "property_satisfied", "property_violated": "property_violated"}[c.outcome]
		ltlq := bindLTL(t, fm, "check ltl"+fairClause(q.Check.FairAll, names(q.Check.Fair))+": "+c.ltl+";")
		res, err := decide.Decide(m, fm.System, mc, ltlq, decide.Options{MaxStates: 1000})
		if err != nil || res.Outcome != want {
			t.Errorf("%s: explicit ltl %s (%s) %v, want %s", c.ltl, res.Outcome, res.Reason, err, want)
		}
	}
}

// TestBMCFairAgreesWithLTL is the differential: on random models (seeds
// logged), random must_reach and response checks with random fair
// clauses, against the explicit engine's ltl check of the same property
// under the same fairness (F B; G (T -> X F R), the window covering the
// whole lasso). Where the explicit engine says satisfied, bmc finds no
// lasso; every lasso bmc finds replays, closes, is fair and violates the
// property by the test's own reading; and where the explicit engine's
// lasso fits in the bound, bmc finds one too.
func TestBMCFairAgreesWithLTL(t *testing.T) {
	ctx, err := z3.NewContext()
	if err != nil {
		t.Skip("no Z3:", err)
	}
	defer ctx.Close()
	const bound = 5
	seen := map[string]int{}
	last := uint64(40)
	if testing.Short() {
		last = 8
	}
	for seed := uint64(1); seed <= last; seed++ {
		// The last seeds draw models where cycles raise: bmc's steps
		// never raise, and its lassos stay clear of those cycles.
		src, kind := fcstmtest.RandomModel(seed), "random"
		if seed > 30 {
			src, kind = fcstmtest.RandomRaisingModel(seed), "raising"
		}
		t.Logf("%s model seed %d", kind, seed)
		m, fm, mc := setup(t, src)
		r := rand.New(rand.NewPCG(seed, 39))
		for range 6 {
			all := r.IntN(4) == 0
			var fair []int
			if !all {
				fair = pick(r, mc.Events())
				if len(fair) == 0 {
					fair = []int{r.IntN(len(mc.Events()))}
				}
			}
			var fairNames []string
			for _, e := range fair {
				fairNames = append(fairNames, mc.Events()[e])
			}
			clause := fairClause(all, fairNames)
			var check, formula string
			if r.IntN(2) == 0 {
				body := randomBody(r)
				check = fmt.Sprintf("check must_reach <= %d%s: %s;", bound, clause, body)
				formula = "F (" + body + ")"
			} else {
				tr, rs := randomBody(r), randomBody(r)
				check = fmt.Sprintf("check response <= %d%s: trigger %s -> within %d %s;", bound, clause, tr, 2*bound, rs)
				formula = fmt.Sprintf("G ((%s) -> X F (%s))", tr, rs)
			}
			name := fmt.Sprintf("seed %d: %s", seed, check)
			rep, err := frontend.Check(ctx, fm, bind(t, fm, check), bmc.Options{TimeoutMS: 60000}, "")
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			res, err := decide.Decide(m, fm.System, mc, bindLTL(t, fm, "check ltl"+clause+": "+formula+";"), decide.Options{MaxStates: 2000})
			if err != nil {
				t.Fatalf("%s: %s: %v", name, formula, err)
			}
			got := rep.Result.Outcome
			seen[kind+": "+got+" / "+res.Outcome]++
			switch got {
			case "property_violated":
				if !rep.Replay.OK() {
					t.Fatalf("%s: replay mismatches %v", name, rep.Replay.Mismatches)
				}
				if res.Outcome == "property_satisfied" {
					t.Fatalf("%s: bmc found a fair lasso, the explicit engine says %s holds", name, formula)
				}
				checkFairLasso(t, name, m, mc, rep.Result, fairIndexes(mc, all, fairNames), formula)
			case "incomplete":
				if rep.Result.IncompleteReason == "" || rep.Result.Trace != nil {
					t.Fatalf("%s: incomplete without its reason, or with a trace", name)
				}
				if res.Outcome == "property_violated" && res.Lasso && len(res.Steps) <= bound {
					t.Fatalf("%s: no fair lasso within %d steps, the explicit engine has one of %d: %v", name, bound, len(res.Steps), res.Steps)
				}
			case "timeout":
				t.Logf("%s: bmc timed out", name)
			default:
				t.Fatalf("%s: outcome %s", name, got)
			}
		}
	}
	t.Logf("bmc / explicit outcomes: %v", seen)
	if seen["random: property_violated / property_violated"] == 0 || seen["random: incomplete / property_satisfied"] == 0 {
		t.Errorf("the random checks decide one way only: %v", seen)
	}
}

// randomBody draws a frame predicate that FBMCQ and the ltl check read
// alike and that is always defined.
func randomBody(r *rand.Rand) string {
	atom := func() string {
		switch r.IntN(3) {
		case 0:
			return fmt.Sprintf("active(%q)", []string{"Root.A", "Root.B", "Root.C", "Root.K", "Root.K.K2"}[r.IntN(5)])
		case 1:
			return fmt.Sprintf("var(\"x\") %s %d", []string{"<", ">=", "==", "!="}[r.IntN(4)], r.IntN(4))
		}
		return fmt.Sprintf("var(\"y\") > %d", r.IntN(3))
	}
	switch r.IntN(4) {
	case 0:
		return atom() + " || " + atom()
	case 1:
		return atom() + " && !(" + atom() + ")"
	}
	return atom()
}

// names lists the names of a fair clause.
func names(ns []query.Name) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Name)
	}
	return out
}

// fairClause writes a fairness clause as FBMCQ has it.
func fairClause(all bool, events []string) string {
	if all {
		return " fair *"
	}
	var q []string
	for _, e := range events {
		q = append(q, fmt.Sprintf("%q", e))
	}
	return " fair { " + strings.Join(q, ", ") + " }"
}

// fairIndexes are the runtime indexes of the fair events.
func fairIndexes(mc *explicit.Machine, all bool, events []string) []int {
	var out []int
	for i, e := range mc.Events() {
		if all || slices.Contains(events, e) {
			out = append(out, i)
		}
	}
	return out
}

// checkFairLasso follows bmc's lasso on the explicit machine, each step
// on the class of inputs its replay inputs fall in, and checks it: no
// step raises, the last frame is the loop start's state again, every
// weakly fair event enabled at every frame of the loop is taken on one of
// its steps, and the lasso violates formula (skipped when "").
func checkFairLasso(t *testing.T, name string, m *model.Model, mc *explicit.Machine, r *bmc.Result, weak []int, formula string) {
	t.Helper()
	if r.Trace == nil || r.LoopStart == nil {
		t.Fatalf("%s: a fair counterexample without a trace or loop start", name)
	}
	loop := *r.LoopStart
	var buf concrete.Buffer
	words := [][]int64{mc.Initial(make([]int64, mc.Width()))}
	var enabled [][]int
	taken := [][]int{nil}
	for i, st := range r.Trace.Steps {
		in := map[int]bool{}
		for _, e := range st.InputEvents {
			in[slices.Index(mc.Events(), e.Path)] = true
		}
		cur := words[i]
		if mc.Location(cur[0]).Kind == explicit.Ended {
			words, taken, enabled = append(words, cur), append(taken, nil), append(enabled, nil)
			continue
		}
		os, ins := mc.Inputs(cur, &buf, nil)
		var en []int
		next := -1
		for k := range os {
			for _, e := range ins[k].Present {
				if !slices.Contains(en, e) {
					en = append(en, e)
				}
			}
			if !slices.ContainsFunc(ins[k].Present, func(e int) bool { return !in[e] }) &&
				!slices.ContainsFunc(ins[k].Absent, func(e int) bool { return in[e] }) {
				next = k
			}
		}
		if next < 0 {
			t.Fatalf("%s: step %d's inputs %v fall in no class of inputs", name, i, st.InputEvents)
		}
		if k := mc.Location(os[next].Next[0]).Kind; k == explicit.Raised || k == explicit.Undecided {
			t.Fatalf("%s: step %d of the lasso raises or cannot be stepped", name, i)
		}
		words = append(words, slices.Clone(os[next].Next))
		taken = append(taken, slices.Clone(ins[next].Present))
		enabled = append(enabled, en)
	}
	n := len(words) - 1
	if !slices.Equal(words[n], words[loop]) {
		t.Fatalf("%s: the lasso does not close: frame %d %v, loop start %d %v", name, n, words[n], loop, words[loop])
	}
	for _, e := range weak {
		always, took := true, false
		for j := loop; j < n; j++ {
			always = always && slices.Contains(enabled[j], e)
			took = took || slices.Contains(taken[j+1], e)
		}
		if always && !took {
			t.Fatalf("%s: the loop from frame %d starves %s: enabled throughout, never taken", name, loop, mc.Events()[e])
		}
	}
	if formula == "" {
		return
	}
	l := &lasso{taken: taken, loop: loop + 1}
	for i := range words {
		l.nodes = append(l.nodes, i)
	}
	f := parseLTL(t, m, mc, formula)
	if eval(f, l, func(a *ltl.Atom, pos int) bool { return atomValue(m, mc, words[pos], taken[pos], a) })[0] {
		t.Fatalf("%s: bmc's lasso satisfies %s", name, formula)
	}
}

// TestBMCFairOnSharedCorpus repeats the differential on pyfcstm's
// semantic fixture models (read where they lie; skipped when absent),
// whose combos, aspects, pseudo chains and nested composites test events
// where the random models do not: must_reach of a state, with every
// event fair and with one.
func TestBMCFairOnSharedCorpus(t *testing.T) {
	files := fcstmtest.SharedModels(t)
	if testing.Short() {
		files = files[:len(files)/4]
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Skip("no Z3:", err)
	}
	defer ctx.Close()
	const bound = 4
	seen := map[string]int{}
	for i, f := range files {
		m, err := model.Load(f)
		if err != nil {
			continue
		}
		fm, err := fcstmfront.FromModel(m, f)
		if err != nil {
			continue // outside the bounded encoding
		}
		mc, err := explicit.New(m)
		if err != nil || len(mc.Events()) == 0 {
			continue
		}
		r := rand.New(rand.NewPCG(uint64(i), 39))
		states, _, _, _ := vocabulary(fm.System)
		for _, all := range []bool{true, false} {
			fair := []string{mc.Events()[r.IntN(len(mc.Events()))]}
			clause := fairClause(all, fair)
			body := fmt.Sprintf("active(%q)", states[r.IntN(len(states))])
			check := fmt.Sprintf("check must_reach <= %d%s: %s;", bound, clause, body)
			name := f + ": " + check
			rep, err := frontend.Check(ctx, fm, bind(t, fm, check), bmc.Options{TimeoutMS: 60000}, "")
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			res, err := decide.Decide(m, fm.System, mc, bindLTL(t, fm, "check ltl"+clause+": F "+body+";"), decide.Options{MaxStates: 20000})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := rep.Result.Outcome
			seen[got+" / "+res.Outcome]++
			switch got {
			case "property_violated":
				if !rep.Replay.OK() {
					t.Fatalf("%s: replay mismatches %v", name, rep.Replay.Mismatches)
				}
				if res.Outcome == "property_satisfied" {
					t.Fatalf("%s: bmc found a fair lasso, the explicit engine says it holds", name)
				}
				checkFairLasso(t, name, m, mc, rep.Result, fairIndexes(mc, all, fair), "F "+body)
			case "incomplete":
				if res.Outcome == "property_violated" && res.Lasso && len(res.Steps) <= bound {
					t.Fatalf("%s: no fair lasso within %d steps, the explicit engine has one of %d: %v", name, bound, len(res.Steps), res.Steps)
				}
			case "timeout":
				t.Logf("%s: bmc timed out", name)
			default:
				t.Fatalf("%s: outcome %s", name, got)
			}
		}
	}
	t.Logf("bmc / explicit outcomes: %v", seen)
}
