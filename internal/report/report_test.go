package report

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestVerdictAndCounts(t *testing.T) {
	warn := Finding{Code: "S5_UNHANDLED_EVENT", Severity: Warning, Message: "w"}
	info := Finding{Code: "NARRATIVE_PARTIAL", Severity: Info, Message: "i"}
	err1 := Finding{Code: "S2_NO_TRANSITIONS", Severity: Error, Message: "e"}
	err2 := Finding{Code: "S7_INVARIANT_VIOLATION", Severity: Error, Message: "e"}
	cases := []struct {
		checks        []Check
		verdict, why  string
		statusOfFirst string
	}{
		{[]Check{{ID: "S1"}}, Pass, "no error or warning findings", Pass},
		{[]Check{{ID: "S1", Findings: []Finding{info}}}, Pass, "no error or warning findings", Fail},
		{[]Check{{ID: "S1", Findings: []Finding{warn}}}, PassWithFindings, "no error findings; 1 warning finding(s)", Fail},
		{[]Check{{ID: "S2", Findings: []Finding{warn, err1}}, {ID: "S7", Findings: []Finding{err2}}}, Fail, "2 error finding(s) (first: S2_NO_TRANSITIONS)", Fail},
	}
	for _, c := range cases {
		v, why := Verdict(c.checks)
		if v != c.verdict || why != c.why {
			t.Errorf("Verdict = %s, %q; want %s, %q", v, why, c.verdict, c.why)
		}
		if got := c.checks[0].Status(); got != c.statusOfFirst {
			t.Errorf("status = %s, want %s (a check with any finding fails)", got, c.statusOfFirst)
		}
	}
	c := Check{Detail: "d", Findings: []Finding{warn, err1}}
	if got := c.FullDetail(); got != "d (1 errors, 1 warnings)" {
		t.Errorf("FullDetail = %q", got)
	}
	c.Findings = []Finding{warn}
	if got := c.FullDetail(); got != "d (1 warnings)" {
		t.Errorf("FullDetail = %q", got)
	}
}

func TestNextStepsOrderAndUndecided(t *testing.T) {
	r := &VerifyReport{Valid: true, MaxStates: 77, Checks: []Check{
		{ID: "S1", Name: "Reachability", Findings: []Finding{{Code: "S1_UNDECIDED", Severity: Warning}}},
		{ID: "S2", Name: "Deadlock", Findings: []Finding{{Code: "S2_NO_TRANSITIONS", Severity: Error}}},
		{ID: "S3", Name: "Liveness"},
	}, NarrativeCoverage: [][2]string{{"states", "1/2"}, {"events", "0/0"}, {"scenarios", "0/1"}}}
	want := []string{
		"Resolve the failing checks first: S2 Deadlock", // S1 has warnings only: reviewed, not resolved
		"Review the warning findings (S1_UNDECIDED) and fix the model or record why each is acceptable",
		"Raise maxStates (now 77) and re-run: S1_UNDECIDED were not decided",
		"Complete the narrative (states 1/2, events 0/0, scenarios 0/1)",
		"Re-run with beforeModel/stateMapping after the change to check for regressions (D1-D4)",
	}
	if got := r.NextSteps(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("nextSteps =\n%s", strings.Join(got, "\n"))
	}
	warnOnly := &VerifyReport{Valid: true, Checks: []Check{{ID: "S5", Name: "Event Completeness", Findings: []Finding{{Code: "S5_UNHANDLED_EVENT", Severity: Warning}}}}}
	if got := warnOnly.NextSteps(); strings.Contains(strings.Join(got, "\n"), "Resolve") || !strings.HasPrefix(got[0], "Review the warning findings (S5_UNHANDLED_EVENT)") {
		t.Errorf("warnings only: nextSteps = %q", got)
	}
	clean := &VerifyReport{Valid: true}
	if got := clean.NextSteps(); len(got) != 1 {
		t.Errorf("nextSteps is never empty and holds only the regression line for a clean report: %q", got)
	}
}

func TestJSONKeyOrderAndNoNulls(t *testing.T) {
	r := &VerifyReport{Valid: true, HashSpec: "v1", ModelHash: "ab", States: 1, Checks: []Check{
		{ID: "S7", Name: "Invariant Validity", Detail: "d", Findings: []Finding{{Code: "C", Severity: Error, Message: "m", Target: []string{"X"}, HasPath: true}}},
	}}
	data, err := Indent(r.JSON())
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	order := []string{`"ok"`, `"ran"`, `"verdict"`, `"verdictReason"`, `"schema"`, `"schemaVersion"`, `"hashSpec"`, `"modelHash"`, `"hashes"`, `"summary"`, `"checks"`, `"nextSteps"`}
	last := -1
	for _, k := range order {
		i := strings.Index(text, k)
		if i < last {
			t.Errorf("%s out of order", k)
		}
		last = i
	}
	if strings.Contains(text, "null") {
		t.Errorf("report holds null:\n%s", text)
	}
	// An empty path is still a path: the initial runtime is the witness.
	if !strings.Contains(text, `"path": []`) {
		t.Errorf("empty path dropped:\n%s", text)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v["ok"] != true || v["verdict"] != Fail {
		t.Errorf("ok/verdict = %v/%v", v["ok"], v["verdict"])
	}
}

func TestRefusalAndHashCheck(t *testing.T) {
	r := (&Refusal{Schema: VerifySchema, Code: "INPUT_NOT_JSON", Err: "x.json: 1:2: bad"}).JSON()
	if r.Get("ran") != false || r.Get("verdictReason") != "the tool did not run: x.json: 1:2: bad" {
		t.Errorf("refusal = %v", r)
	}
	h := &HashCheck{Checked: "aa", Published: [][2]string{{"v0", "aa"}, {"v1", "aa"}}}
	if j := h.JSON(); j.Get("verdictReason") != "reproduced by v0, v1" {
		t.Errorf("hash check = %v", j)
	}
}

func TestFormatPath(t *testing.T) {
	if got := FormatPath([]Step{{"A", "go", "B"}, {"B", "stop", "C"}}); got != "A --go--> B --stop--> C" {
		t.Errorf("FormatPath = %q", got)
	}
	if got := FormatPath(nil); got != "(the initial state)" {
		t.Errorf("empty path = %q", got)
	}
}

// A lasso finding's text says which steps repeat; a path without
// cycleStart gets no cycle line.
func TestCycleLine(t *testing.T) {
	path := []Step{{"IDLE", "req", "BUSY"}, {"BUSY", "poll", "BUSY"}}
	for cs, want := range map[any]string{
		1:   "      cycle: steps 2–2, from BUSY back to it, repeat forever\n",
		0:   "      cycle: steps 1–2, from IDLE back to it, repeat forever\n",
		2:   "      cycle: none, the run stays in BUSY (a dead end) forever\n",
		nil: "",
		7:   "",
	} {
		f := &Finding{Code: "A15_LTL_VIOLATION", Severity: Error, Message: "m", Path: path}
		if cs != nil {
			f.Evidence = O("cycleStart", cs)
		}
		var b strings.Builder
		writeFinding(&b, f, Style{})
		if got := strings.SplitN(b.String(), "\n", 3)[2]; got != want {
			t.Errorf("cycleStart %v: %q, want %q", cs, got, want)
		}
	}
}

// Undecided findings are grouped by the flag that would decide them, read
// off their evidence's capKind, and the header names what stopped the
// searches: a disk or memory stop is not blamed on maxStates.
func TestNextStepsAndHeaderNameTheLimit(t *testing.T) {
	und := func(code, kind string) Finding {
		return Finding{Code: code, Severity: Warning, Evidence: O("cap", 1, "explored", 1, "capKind", kind)}
	}
	r := &VerifyReport{Valid: true, MaxStates: 9, Truncated: true, StoppedBy: []string{"maxDisk", "memory", "pairGraph"}, Checks: []Check{
		{ID: "S1", Findings: []Finding{und("S1_UNDECIDED", "maxDisk")}},
		{ID: "A4", Findings: []Finding{und("A4_UNDECIDED", "pairGraph")}},
		{ID: "A9", Findings: []Finding{und("A9_LEADS_TO_UNDECIDED", "leadsToWalk"), und("A9_LEADS_TO_UNDECIDED", "memory")}},
	}}
	steps := strings.Join(r.NextSteps(), "\n")
	for _, want := range []string{
		"Raise maxStates (now 9) and re-run: A9_LEADS_TO_UNDECIDED were not decided",
		"Raise --max-disk and re-run: S1_UNDECIDED were not decided",
		"Raise --memory and re-run: A9_LEADS_TO_UNDECIDED were not decided",
		"Follow the advice of the undecided findings (A4_UNDECIDED): raising maxStates would not decide them",
	} {
		if !strings.Contains(steps, want) {
			t.Errorf("next steps lack %q:\n%s", want, steps)
		}
	}
	var b strings.Builder
	if err := WriteVerifyText(&b, "m", r, Style{}); err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(b.String(), "\n\n")
	for _, want := range []string{"--max-disk", "--memory", "built-in limit"} {
		if !strings.Contains(header, want) {
			t.Errorf("header lacks %q:\n%s", want, header)
		}
	}
	if strings.Contains(header, "cap of 9") {
		t.Errorf("header blames the state cap:\n%s", header)
	}
}
