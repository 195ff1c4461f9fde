package verify

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

func pathText(p []report.Step) string {
	if len(p) == 0 {
		return ""
	}
	s := p[0].From
	for _, st := range p {
		s += " -" + st.Event + "-> " + st.To
	}
	return s
}

// The leads-to family of the reference fixtures.
func TestLeadsTo(t *testing.T) {
	const states = `{"id":"A"},{"id":"B"},{"id":"C"},{"id":"D","terminal":true},{"id":"E","terminal":true}`
	inv := func(from, to string) string {
		return `,"invariants":[{"id":"l","description":"d","kind":"leads-to","from":"` + from + `","to":` + to + `}]`
	}
	cases := []struct {
		name, trans, inv string
		violated         bool
		message, path    string
	}{
		{"direct", `{"from":"A","event":"go","to":"D"}`, inv("A", `"D"`), false, "", ""},
		{"chain", `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"C"},{"from":"C","event":"go","to":"D"}`, inv("A", `"D"`), false, "", ""},
		{"diamond", `{"from":"A","event":"l","to":"B"},{"from":"A","event":"r","to":"C"},{"from":"B","event":"go","to":"D"},{"from":"C","event":"go","to":"B"}`, inv("A", `"D"`), false, "", ""},
		{"self-target", `{"from":"A","event":"go","to":"A"}`, inv("A", `"A"`), false, "", ""},
		{"cycle avoids", `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"C"},{"from":"C","event":"back","to":"B"},{"from":"C","event":"go","to":"D"}`, inv("A", `"D"`), true,
			`Cycle avoids target "D", returning to state "B"`, "A -go-> B -go-> C -back-> B"},
		{"dead end", `{"from":"A","event":"go","to":"B"},{"from":"A","event":"alt","to":"D"}`, inv("A", `"D"`), true,
			`Dead end before target "D" in state "B"`, "A -go-> B"},
		{"terminal non-target is a dead end", `{"from":"A","event":"go","to":"E"},{"from":"A","event":"alt","to":"D"}`, inv("A", `"D"`), true,
			`Dead end before target "D" in state "E"`, "A -go-> E"},
		{"set target", `{"from":"A","event":"go","to":"E"},{"from":"A","event":"alt","to":"D"}`, inv("A", `["D","E"]`), false, "", ""},
		{"set avoided", `{"from":"A","event":"go","to":"B"},{"from":"B","event":"spin","to":"B"},{"from":"B","event":"go","to":"E"},{"from":"A","event":"alt","to":"D"}`, inv("A", `["D","E"]`), true,
			`Cycle avoids target ["D", "E"], returning to state "B"`, "A -go-> B -spin-> B"},
		{"start deep in the graph", `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"C"},{"from":"C","event":"spin","to":"C"},{"from":"C","event":"go","to":"D"}`, inv("B", `"D"`), true,
			`Cycle avoids target "D", returning to state "C"`, "A -go-> B -go-> C -spin-> C"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, m(states, c.trans, c.inv), 0)
			a9 := check(r, "A9")
			if !c.violated {
				if len(a9.Findings) != 0 {
					t.Fatalf("findings %+v", a9.Findings)
				}
				return
			}
			if len(a9.Findings) != 1 || a9.Findings[0].Code != "A9_LEADS_TO_VIOLATION" {
				t.Fatalf("findings %+v", a9.Findings)
			}
			f := a9.Findings[0]
			if !strings.Contains(f.Message, c.message) || !strings.HasSuffix(f.Message, " — d") {
				t.Errorf("message %q lacks %q", f.Message, c.message)
			}
			if got := pathText(f.Path); got != c.path {
				t.Errorf("path %q, want %q", got, c.path)
			}
			if a7 := check(r, "A7").Findings[0]; !strings.Contains(a7.Message, "(not necessarily shortest)") || pathText(a7.Path) != c.path {
				t.Errorf("A7 = %q %q", a7.Message, pathText(a7.Path))
			}
		})
	}
}

// Two-phase commit with a participant stuck after its yes vote: S2, and the
// decision never comes (a dead end before the target).
func TestTwoPhaseCommitStuckParticipant(t *testing.T) {
	src := m(`{"id":"A"},{"id":"PREPARED"},{"id":"COMMITTED","terminal":true},{"id":"ABORTED","terminal":true}`,
		`{"from":"A","event":"vote_yes","to":"PREPARED"},{"from":"A","event":"vote_no","to":"ABORTED"}`,
		`,"invariants":[{"id":"decides","description":"every participant learns the outcome","kind":"leads-to","from":"A","to":["COMMITTED","ABORTED"]}]`)
	r := run(t, src, 0)
	got := codes(r)
	for _, want := range []string{"S2_NO_TRANSITIONS", "A9_LEADS_TO_VIOLATION", "A7_SHORTEST_COUNTEREXAMPLE"} {
		if !containsCode(got, want) {
			t.Errorf("codes %v lack %s", got, want)
		}
	}
	if f := check(r, "A9").Findings[0]; pathText(f.Path) != "A -vote_yes-> PREPARED" || !strings.Contains(f.Message, `Dead end before target ["COMMITTED", "ABORTED"] in state "PREPARED"`) {
		t.Errorf("A9 = %s %q", f.Message, pathText(f.Path))
	}
}

func containsCode(cs []string, c string) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// The breadth-first kinds return the shortest witness.
func TestShortestWitnesses(t *testing.T) {
	const states = `{"id":"A"},{"id":"B"},{"id":"C"},{"id":"D","terminal":true}`
	// A long way and a short way to the violation; the short way is found.
	const trans = `{"from":"A","event":"a1","to":"B"},{"from":"B","event":"a2","to":"C"},{"from":"C","event":"bad","to":"D","cost":5},{"from":"A","event":"bad","to":"D","cost":5},{"from":"A","event":"commit","to":"D"}`
	cases := []struct{ id, inv, path, what string }{
		{"A10", `{"id":"s","description":"d","kind":"sequence","events":["a1","bad"]}`, "A -bad-> D", `Event "bad" occurred before "a1"`},
		{"A11", `{"id":"t","description":"d","kind":"atomicity","events":["a1"],"commit":"commit"}`, "A -a1-> B -a2-> C", `Left atomic scope via "a2" before "commit"`},
		{"A12", `{"id":"b","description":"d","kind":"budget","budget":4}`, "A -bad-> D", "cost 5 exceeds the budget 4"},
	}
	for _, c := range cases {
		r := run(t, m(states, trans, `,"invariants":[`+c.inv+`]`), 0)
		ch := check(r, c.id)
		if len(ch.Findings) != 1 {
			t.Fatalf("%s: %+v", c.id, ch.Findings)
		}
		f := ch.Findings[0]
		if pathText(f.Path) != c.path || !strings.Contains(f.Message, c.what) {
			t.Errorf("%s: %q via %q, want %q via %q", c.id, f.Message, pathText(f.Path), c.what, c.path)
		}
	}
	// Atomicity: a terminal state inside the group.
	r := run(t, m(states, `{"from":"A","event":"a1","to":"D"},{"from":"A","event":"c","to":"B"}`, `,"invariants":[{"id":"t","description":"d","kind":"atomicity","events":["a1"],"commit":"c"}]`), 0)
	if f := check(r, "A11").Findings; len(f) != 1 || !strings.Contains(f[0].Message, "Terminal state reached with incomplete atomic group") {
		t.Errorf("A11 terminal: %+v", f)
	}
}

// Budgets: a DAG merge is not a cycle, a positive-cost cycle is unbounded,
// a zero-cost cycle is harmless.
func TestBudget(t *testing.T) {
	const states = `{"id":"A"},{"id":"B"},{"id":"C"},{"id":"D","terminal":true}`
	const dag = `{"from":"A","event":"l","to":"B","cost":3},{"from":"A","event":"r","to":"C","cost":1},{"from":"B","event":"go","to":"D","cost":2},{"from":"C","event":"go","to":"B","cost":1}`
	budget := func(b string) string {
		return `,"invariants":[{"id":"b","description":"d","kind":"budget","budget":` + b + `}]`
	}
	if f := check(run(t, m(states, dag, budget("5")), 0), "A12").Findings; len(f) != 0 {
		t.Errorf("DAG merge within budget: %+v", f)
	}
	f := check(run(t, m(states, dag, budget("4.5")), 0), "A12").Findings
	if len(f) != 1 || f[0].Evidence.Get("unbounded") != false || f[0].Evidence.Get("totalCost") != 5.0 || pathText(f[0].Path) != "A -l-> B -go-> D" {
		t.Errorf("DAG merge over budget: %+v", f)
	}
	cyc := dag + `,{"from":"B","event":"retry","to":"C","cost":0.5}`
	f = check(run(t, m(states, cyc, budget("1000")), 0), "A12").Findings
	if len(f) != 1 || f[0].Evidence.Get("unbounded") != true || f[0].Evidence.Get("cycleCost") != 1.5 || pathText(f[0].Path) != "A -l-> B -retry-> C -go-> B" {
		t.Errorf("positive cycle: %+v", f)
	}
	free := dag + `,{"from":"B","event":"wait","to":"B","cost":0}`
	if f := check(run(t, m(states, free, budget("5")), 0), "A12").Findings; len(f) != 0 {
		t.Errorf("zero-cost cycle: %+v", f)
	}
	// 0.1 + 0.2 is not over a budget of 0.3.
	dec := `{"from":"A","event":"go","to":"B","cost":0.1},{"from":"B","event":"go","to":"D","cost":0.2}`
	if f := check(run(t, m(states, dec, budget("0.3")), 0), "A12").Findings; len(f) != 0 {
		t.Errorf("decimal costs: %+v", f)
	}
}

// The budgeted dispatcher: within budget as shipped, over budget in the
// broken variant, with the shortest over-budget path.
func TestDispatcherBudget(t *testing.T) {
	if f := check(runFile(t, "dispatcher.json"), "A12").Findings; len(f) != 0 {
		t.Errorf("dispatcher: %+v", f)
	}
	f := check(runFile(t, "broken/a12-dispatcher-over-budget.json"), "A12").Findings
	if len(f) != 1 || f[0].Code != "A12_BUDGET_OVER" || f[0].Evidence.Get("totalCost") != 90.0 || len(f[0].Path) != 5 {
		t.Errorf("over budget: %+v", f)
	}
}

func runFile(t *testing.T, name string) *report.VerifyReport {
	t.Helper()
	data, err := os.ReadFile("../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return run(t, string(data), 0)
}

// Peterson's mutex: the correct algorithm keeps mutual exclusion; without
// the flag raise, S7 finds both processes in the critical section.
func TestPeterson(t *testing.T) {
	if f := check(runFile(t, "peterson.json"), "S7").Findings; len(f) != 0 {
		t.Errorf("correct Peterson: %+v", f)
	}
	f := check(runFile(t, "broken/s7-peterson-no-flag.json"), "S7").Findings
	if len(f) != 1 || f[0].Code != "S7_INVARIANT_VIOLATION" || len(f[0].Path) != 6 {
		t.Errorf("buggy Peterson: %+v", f)
	}
}

// Webhook redelivery: the deduplicating handler is idempotent, the one that
// charges on every delivery is not.
func TestWebhookRedelivery(t *testing.T) {
	if f := check(runFile(t, "webhook-redelivery.json"), "A8").Findings; len(f) != 0 {
		t.Errorf("deduplicating handler: %+v", f)
	}
	f := check(runFile(t, "broken/a8-webhook-redelivery.json"), "A8").Findings
	if len(f) != 1 || f[0].Code != "A8_NOT_IDEMPOTENT" || f[0].Severity != report.Error || f[0].Target != "payment_succeeded" {
		t.Fatalf("charging handler: %+v", f)
	}
	if once, twice := f[0].Evidence.Get("once"), f[0].Evidence.Get("twice"); once == nil || twice == nil {
		t.Errorf("evidence %v", f[0].Evidence)
	}
}

// decideProb runs the probability invariant of a model and returns its
// outcome.
func decideProb(t *testing.T, src string) invariantOutcome {
	t.Helper()
	return decideProbMax(t, src, 0)
}

// decideProbMax is decideProb with a state cap (0: the default).
func decideProbMax(t *testing.T, src string, maxStates int) invariantOutcome {
	t.Helper()
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatalf("model: %v %v", err, res.Errors)
	}
	opts := DefaultOptions()
	if maxStates > 0 {
		opts.MaxStates = maxStates
	}
	e := newEnv(res.Model, opts)
	return e.decideInvariant(e.invariantsOf(jsonmodel.Probability)[0])
}

// ruin is the probability of ruin from i of n with p(win) = p.
func ruin(p float64, i, n int) float64 {
	if p == 0.5 {
		return 1 - float64(i)/float64(n)
	}
	r := (1 - p) / p
	return (math.Pow(r, float64(i)) - math.Pow(r, float64(n))) / (1 - math.Pow(r, float64(n)))
}

// gamblersRuin builds the chain from 1 of n with the given weights.
func gamblersRuin(n int, win, lose string) string {
	return strings.NewReplacer("N1", strconv.Itoa(n-1), "WIN", win, "LOSE", lose).Replace(`{"schemaVersion":1,"init":"PLAY","states":[{"id":"PLAY"},{"id":"BROKE","terminal":true},{"id":"RICH","terminal":true}],
	"transitions":[{"from":"PLAY","event":"win","to":"PLAY","guard":{"variable":"m","op":"<","value":N1},"updates":[{"variable":"m","op":"inc"}],"weight":WIN},
	{"from":"PLAY","event":"win","to":"RICH","guard":{"variable":"m","op":">=","value":N1},"weight":WIN},
	{"from":"PLAY","event":"lose","to":"PLAY","guard":{"variable":"m","op":">","value":1},"updates":[{"variable":"m","op":"dec"}],"weight":LOSE},
	{"from":"PLAY","event":"lose","to":"BROKE","guard":{"variable":"m","op":"<=","value":1},"weight":LOSE}],
	"variables":[{"name":"m","kind":"integer","init":1}],
	"invariants":[{"id":"ruin","description":"d","kind":"probability","target":"BROKE","op":">=","p":0}]}`)
}

func TestGamblersRuin(t *testing.T) {
	cases := []struct {
		name      string
		n         int
		win, lose string
		p         float64
		method    string
		exact     string
	}{
		{"fair, 1 of 5", 5, "1", "1", 0.5, methodExact, "4/5"},
		{"biased, 1 of 5", 5, "0.4", "0.6", 0.4, methodExact, "195/211"},
		{"biased, 1 of 100, interval iteration", 100, "0.45", "0.55", 0.45, methodInterval, ""},
		{"biased, 1 of 1000, interval iteration", 1000, "0.4", "0.6", 0.4, methodInterval, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := decideProb(t, gamblersRuin(c.n, c.win, c.lose))
			pr := out.prob
			want := ruin(c.p, 1, c.n)
			if pr == nil || pr.method != c.method || !pr.converged || math.Abs(pr.value()-want) > 1e-9 {
				t.Fatalf("P(ruin) = %s, want %.12f by %s", probText(pr), want, c.method)
			}
			// A bracket holds the true value and is narrow.
			if pr.exact == nil && (pr.lo > want+1e-15 || pr.hi < want-1e-15 || pr.hi-pr.lo > 2e-9) {
				t.Errorf("bracket [%v, %v] for %.15f", pr.lo, pr.hi, want)
			}
			if c.exact != "" && pr.exact.RatString() != c.exact {
				t.Errorf("exact = %s, want %s", pr.exact.RatString(), c.exact)
			}
		})
	}
	// The examples: A13 passes and its detail carries the value.
	for name, want := range map[string]string{"gamblers-ruin.json": `P(reach "BROKE") = 0.800000 (exact-rational)`, "gamblers-ruin-biased.json": `P(reach "BROKE") = 0.924171 (exact-rational)`} {
		c := check(runFile(t, name), "A13")
		if len(c.Findings) != 0 || c.Detail != want {
			t.Errorf("%s: %q %+v", name, c.Detail, c.Findings)
		}
	}
}

// A violated bound carries the computed value, the method and a witness.
func TestProbabilityViolationEvidence(t *testing.T) {
	src := strings.Replace(gamblersRuin(5, "1", "1"), `"op":">=","p":0`, `"op":"<=","p":0.75`, 1)
	r := run(t, src, 0)
	f := check(r, "A13").Findings
	if len(f) != 1 || f[0].Message != `P(reach "BROKE") = 0.800000 violates <= 0.75 — d` {
		t.Fatalf("%+v", f)
	}
	ev := f[0].Evidence
	if ev.Get("computed") != 0.8 || ev.Get("method") != methodExact || ev.Get("exact") != "4/5" || ev.Get("converged") != true || ev.Get("invariant") != "ruin" {
		t.Errorf("evidence %v", ev)
	}
	if pathText(f[0].Path) != "PLAY -lose-> BROKE" {
		t.Errorf("witness %q", pathText(f[0].Path))
	}
}
