package verify

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

func run(t *testing.T, src string, maxStates int) *report.VerifyReport {
	t.Helper()
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !res.Valid() {
		t.Fatalf("model invalid: %v", res.Errors)
	}
	opts := DefaultOptions()
	if maxStates > 0 {
		opts.MaxStates = maxStates
	}
	return Run(res, opts)
}

func check(r *report.VerifyReport, id string) *report.Check {
	for i := range r.Checks {
		if r.Checks[i].ID == id {
			return &r.Checks[i]
		}
	}
	return nil
}

func codes(r *report.VerifyReport) []string {
	var out []string
	for _, c := range r.Checks {
		for _, f := range c.Findings {
			out = append(out, f.Code)
		}
	}
	return out
}

// modelB is seed 004's minimal retry example (reference Appendix B).
const modelB = `{"schemaVersion":1,"init":"INIT","states":[{"id":"INIT"},{"id":"RETRY"},{"id":"FATAL","terminal":true}],"transitions":[{"from":"INIT","event":"timeout","guard":{"variable":"retry","op":"<","value":3},"to":"RETRY","updates":[{"variable":"retry","op":"inc"}]},{"from":"INIT","event":"timeout","guard":{"variable":"retry","op":">=","value":3},"to":"FATAL"}],"variables":[{"name":"retry","kind":"integer","init":0,"min":0,"max":3}],"boundaryChecks":[{"variable":"retry","values":[0,1,2,3]}]}`

func TestWorkedExampleB(t *testing.T) {
	r := run(t, modelB, 0)
	want := []string{"S1_UNREACHABLE_STATE", "S2_NO_TRANSITIONS", "S5_UNHANDLED_EVENT", "A1_UNHANDLED_EVENT"}
	if got := codes(r); !slices.Equal(got, want) {
		t.Errorf("codes = %v, want %v", got, want)
	}
	if v, reason := r.Verdict(); v != report.Fail || reason != "1 error finding(s) (first: S2_NO_TRANSITIONS)" {
		t.Errorf("verdict = %s, %s", v, reason)
	}
	if r.ModelHash != "491d3ae3313a1c31f8f9c7c137148f860a29004f3b12c137a0f1de476688c822" {
		t.Errorf("modelHash = %s", r.ModelHash)
	}
	if f := check(r, "S1").Findings[0]; f.Target != "FATAL" || f.Message != `State "FATAL" is unreachable from "INIT"` {
		t.Errorf("S1 finding = %+v", f)
	}
	if d := check(r, "S1").FullDetail(); d != "1 of 3 declared states unreachable (2 runtime states explored) (1 warnings)" {
		t.Errorf("S1 detail = %q", d)
	}
}

// Each S-code: a model that triggers it and a near-identical one that must not.
func TestStructuralCodes(t *testing.T) {
	const hdr = `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B"},{"id":"C","terminal":true}%s],"transitions":[%s],"variables":[{"name":"x","kind":"integer","init":0,"min":0,"max":5}%s]%s}`
	mk := func(states, trans, vars, rest string) string {
		s := strings.Replace(hdr, "%s", states, 1)
		s = strings.Replace(s, "%s", trans, 1)
		s = strings.Replace(s, "%s", vars, 1)
		return strings.Replace(s, "%s", rest, 1)
	}
	const loop = `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"C"}`
	cases := []struct {
		code      string
		bad, good string
	}{
		{"S1_UNREACHABLE_STATE",
			mk(`,{"id":"D"}`, loop+`,{"from":"D","event":"go","to":"C"}`, "", ""),
			mk(`,{"id":"D"}`, loop+`,{"from":"D","event":"go","to":"C"},{"from":"A","event":"jump","to":"D"}`, "", "")},
		{"S2_NO_TRANSITIONS",
			mk(`,{"id":"D"}`, loop+`,{"from":"B","event":"go","to":"D"}`, "", ""),
			mk(`,{"id":"D","terminal":true}`, loop+`,{"from":"B","event":"go","to":"D"}`, "", "")},
		{"S3_CLOSED_SCC",
			mk("", `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"A"}`, "", ""),
			mk("", `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"A"},{"from":"B","event":"stop","to":"C"}`, "", "")},
		{"S4_AMBIGUOUS_DEFAULT",
			mk("", loop+`,{"from":"A","event":"go","to":"C"}`, "", ""),
			mk("", loop+`,{"from":"A","event":"go","to":"C","guard":{"variable":"x","op":">","value":0}}`, "", "")},
		{"S4_NONDETERMINISTIC_GUARDS",
			mk("", `{"from":"A","event":"go","to":"B","guard":{"variable":"x","op":"<=","value":3}},{"from":"A","event":"go","to":"C","guard":{"variable":"x","op":">=","value":3}},{"from":"B","event":"go","to":"C"}`, "", ""),
			mk("", `{"from":"A","event":"go","to":"B","guard":{"variable":"x","op":"<=","value":3}},{"from":"A","event":"go","to":"C","guard":{"variable":"x","op":">","value":3}},{"from":"B","event":"go","to":"C"}`, "", "")},
		{"S5_UNHANDLED_EVENT",
			mk("", loop+`,{"from":"A","event":"stop","to":"C"}`, "", ""),
			mk("", loop+`,{"from":"A","event":"stop","to":"C"},{"from":"B","event":"stop","to":"C"}`, "", "")},
		{"S6_INCOMPLETE_GUARD",
			mk("", `{"from":"A","event":"go","to":"B","guard":{"variable":"x","op":"<=","value":3}},{"from":"A","event":"go","to":"C","guard":{"variable":"x","op":">=","value":5}},{"from":"B","event":"go","to":"C"}`, "", ""),
			mk("", `{"from":"A","event":"go","to":"B","guard":{"variable":"x","op":"<=","value":3}},{"from":"A","event":"go","to":"C","guard":{"variable":"x","op":">=","value":4}},{"from":"B","event":"go","to":"C"}`, "", "")},
		{"S6_DEAD_GUARD",
			mk("", loop+`,{"from":"A","event":"go","to":"C","guard":{"variable":"x","op":"==","value":4}}`, "", ""),
			mk("", loop+`,{"from":"A","event":"go","to":"C","guard":{"variable":"x","op":"==","value":4}},{"from":"B","event":"bump","to":"B","updates":[{"variable":"x","op":"set","value":4}]}`, "", "")},
		{"S6_UNBOUNDED_DOMAIN",
			mk("", loop+`,{"from":"A","event":"go","to":"C","guard":{"all":[{"variable":"p","op":"==","value":1},{"variable":"q","op":"==","value":1}]}}`, `,{"name":"p","kind":"integer","init":0,"min":0,"max":150},{"name":"q","kind":"integer","init":0,"min":0,"max":150}`, ""),
			mk("", loop+`,{"from":"A","event":"go","to":"C","guard":{"all":[{"variable":"p","op":"==","value":1},{"variable":"q","op":"==","value":1}]}}`, `,{"name":"p","kind":"integer","init":0,"min":0,"max":50},{"name":"q","kind":"integer","init":0,"min":0,"max":50}`, "")},
		{"S7_INVARIANT_VIOLATION",
			mk("", loop, "", `,"invariants":[{"id":"no-c","description":"C is never reached","kind":"never-states","states":["C"]}]`),
			mk("", loop, "", `,"invariants":[{"id":"x-small","description":"x stays small","kind":"var-in-range","variable":"x","max":5}]`)},
		{"S8_MONOTONIC_DECREASE",
			mk("", loop+`,{"from":"B","event":"back","to":"B","guard":{"variable":"m","op":">","value":0},"updates":[{"variable":"m","op":"dec"}]}`, `,{"name":"m","kind":"integer","init":0,"monotonic":"inc"}`, ""),
			mk("", loop+`,{"from":"B","event":"back","to":"B","guard":{"variable":"m","op":">","value":0},"updates":[{"variable":"m","op":"inc"}]}`, `,{"name":"m","kind":"integer","init":0,"monotonic":"inc"}`, "")},
		{"S8_MONOTONIC_INCREASE",
			mk("", loop+`,{"from":"B","event":"back","to":"B","updates":[{"variable":"m","op":"dec","value":-2}]}`, `,{"name":"m","kind":"integer","init":0,"monotonic":"dec"}`, ""),
			mk("", loop+`,{"from":"B","event":"back","to":"B","updates":[{"variable":"m","op":"dec","value":2}]}`, `,{"name":"m","kind":"integer","init":0,"monotonic":"dec"}`, "")},
		{"S8_MONOTONIC_SET_REVIEW",
			mk("", loop+`,{"from":"B","event":"reset","to":"B","updates":[{"variable":"m","op":"set","value":0}]}`, `,{"name":"m","kind":"integer","init":0,"monotonic":"inc"}`, ""),
			mk("", loop+`,{"from":"B","event":"reset","to":"B","updates":[{"variable":"m","op":"set","value":0}]}`, `,{"name":"m","kind":"integer","init":0}`, "")},
		{"S8_DOMAIN_SET_OUTSIDE",
			mk("", loop+`,{"from":"B","event":"reset","to":"B","updates":[{"variable":"x","op":"set","value":9}]}`, "", ""),
			mk("", loop+`,{"from":"B","event":"reset","to":"B","updates":[{"variable":"x","op":"set","value":5}]}`, "", "")},
		{"S8_DOMAIN_NOT_ENFORCED",
			mk("", loop+`,{"from":"B","event":"up","to":"B","guard":{"variable":"x","op":"<=","value":4},"updates":[{"variable":"x","op":"inc","value":2}]}`, "", ""),
			mk("", loop+`,{"from":"B","event":"up","to":"B","guard":{"variable":"x","op":"<=","value":3},"updates":[{"variable":"x","op":"inc","value":2}]}`, "", "")},
	}
	for _, c := range cases {
		t.Run(c.code, func(t *testing.T) {
			if got := codes(run(t, c.bad, 0)); !slices.Contains(got, c.code) {
				t.Errorf("triggering model gave %v, want %s", got, c.code)
			}
			if got := codes(run(t, c.good, 0)); slices.Contains(got, c.code) {
				t.Errorf("near-identical model still gives %s (all: %v)", c.code, got)
			}
		})
	}
}

// A cap that bites is never a pass, and never a false "unreachable".
func TestCapsAreUndecided(t *testing.T) {
	src := `{"schemaVersion":1,"init":"RUN","states":[{"id":"RUN"},{"id":"FAR"},{"id":"STOP","terminal":true}],
	  "transitions":[{"from":"RUN","event":"tick","to":"RUN","updates":[{"variable":"c","op":"inc"}]},
	    {"from":"RUN","event":"jump","to":"FAR","guard":{"variable":"c","op":">=","value":50}},
	    {"from":"RUN","event":"jump","to":"RUN","guard":{"variable":"c","op":"<","value":50}},
	    {"from":"FAR","event":"stop","to":"STOP"}],
	  "variables":[{"name":"c","kind":"integer","init":0}],
	  "invariants":[{"id":"never-stop","description":"STOP is never reached","kind":"never-states","states":["STOP"]},
	    {"id":"c-small","description":"c stays small","kind":"var-in-range","variable":"c","max":100000},
	    {"id":"jump-first","description":"FAR only after jump","kind":"event-before-state","event":"jump","state":"FAR"}]}`
	r := run(t, src, 20)
	if !r.Truncated {
		t.Fatal("an unbounded counter must truncate")
	}
	got := codes(r)
	for _, want := range []string{"S1_UNDECIDED", "S7_UNDECIDED"} {
		if !slices.Contains(got, want) {
			t.Errorf("codes %v lack %s", got, want)
		}
	}
	if slices.Contains(got, "S1_UNREACHABLE_STATE") {
		t.Error("a truncated search reported a state unreachable")
	}
	s7 := check(r, "S7")
	if len(s7.Findings) != 3 || s7.Status() != report.Fail {
		t.Errorf("S7 = %+v", s7)
	}
	if v, _ := r.Verdict(); v == report.Pass {
		t.Error("truncated run passed")
	}
	steps := strings.Join(r.NextSteps(), "\n")
	if !strings.Contains(steps, "Raise maxStates (now 20) and re-run: A7_UNDECIDED, S1_UNDECIDED, S7_UNDECIDED were not decided") {
		t.Errorf("nextSteps = %s", steps)
	}
	// With a large enough cap the violation is found, with its shortest path.
	r = run(t, src, 1000)
	f := check(r, "S7").Findings[0]
	if f.Code != "S7_INVARIANT_VIOLATION" || len(f.Path) != 52 {
		t.Errorf("S7 finding = %s with %d steps, want a violation in 52 steps", f.Code, len(f.Path))
	}
}

func TestInvariantSemantics(t *testing.T) {
	const m = `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B"},{"id":"C","terminal":true}],
	  "transitions":[{"from":"A","event":"go","to":"B","updates":[{"variable":"x","op":"set","value":7}]},
	    {"from":"B","event":"fix","to":"C","updates":[{"variable":"x","op":"set","value":1}]},
	    {"from":"A","event":"fix","to":"C"}],
	  "variables":[{"name":"x","kind":"integer","init":%d}],"invariants":[%s]}`
	cases := []struct {
		name     string
		init     int
		inv      string
		violated bool
		steps    int
	}{
		{"range violated in B", 0, `{"id":"r","description":"d","kind":"var-in-range","variable":"x","max":5}`, true, 1},
		{"scoped away from B holds", 0, `{"id":"r","description":"d","kind":"var-in-range","variable":"x","max":5,"when":{"state":"C"}}`, false, 0},
		{"scoped to B violated", 0, `{"id":"r","description":"d","kind":"var-in-range","variable":"x","max":5,"when":{"state":"B"}}`, true, 1},
		{"initial state always checked", 9, `{"id":"r","description":"d","kind":"var-in-range","variable":"x","max":8,"when":{"state":"C"}}`, true, 0},
		{"event before state, shortest", 0, `{"id":"e","description":"d","kind":"event-before-state","event":"go","state":"C"}`, true, 1},
		{"event on the entering step is fine", 0, `{"id":"e","description":"d","kind":"event-before-state","event":"go","state":"B"}`, false, 0},
		{"initial state before event", 0, `{"id":"e","description":"d","kind":"event-before-state","event":"go","state":"A"}`, true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(strings.Replace(m, "%d", strconv.Itoa(c.init), 1), "%s", c.inv, 1)
			s7 := check(run(t, src, 0), "S7")
			if c.violated != (len(s7.Findings) == 1 && s7.Findings[0].Code == "S7_INVARIANT_VIOLATION") {
				t.Fatalf("findings = %+v, want violated=%v", s7.Findings, c.violated)
			}
			if c.violated {
				f := s7.Findings[0]
				if len(f.Path) != c.steps || !f.HasPath {
					t.Errorf("path = %v, want %d steps", f.Path, c.steps)
				}
				if !strings.HasSuffix(f.Message, " — d") {
					t.Errorf("message lacks the description: %q", f.Message)
				}
			}
		})
	}
}

func TestVerdictAndChecksRun(t *testing.T) {
	r := run(t, `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B","terminal":true}],"transitions":[{"from":"A","event":"go","to":"B"}]}`, 0)
	if v, reason := r.Verdict(); v != report.Pass || reason != "no error or warning findings" {
		t.Errorf("verdict %s (%s)", v, reason)
	}
	if r.ChecksRun() != 22 {
		t.Errorf("checksRun = %d", r.ChecksRun())
	}
}
