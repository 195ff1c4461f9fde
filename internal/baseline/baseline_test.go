package baseline

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
)

// rep builds a verify report with the given checks as JSON text.
func rep(checks string, extra string) string {
	return `{"ok":true,"ran":true,"verdict":"fail","verdictReason":"x","schema":"logicprobe/verify/v1","modelHash":"abc","checks":[` + checks + `]` + extra + `}`
}

func parse(t *testing.T, src string) *Report {
	t.Helper()
	r, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return r
}

func diff(t *testing.T, base, cur string) *Diff {
	t.Helper()
	return Compare(parse(t, base), parse(t, cur))
}

func codesOf(fs []Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Check+":"+f.Code)
	}
	return strings.Join(out, ",")
}

const (
	s2Dead = `{"code":"S2_NO_TRANSITIONS","severity":"error","message":"State \"B\" has no outgoing transitions and is not terminal","target":"B"}`
	s5Warn = `{"code":"S5_UNHANDLED_EVENT","severity":"warning","message":"State \"A\" silently ignores event \"x\"","target":"A"}`
	s7Viol = `{"code":"S7_INVARIANT_VIOLATION","severity":"error","message":"Invariant \"i\" violated after 1 step","evidence":{"invariant":{"id":"i","kind":"never-states","states":["B"]}},"path":[{"from":"A","event":"go","to":"B"}]}`
)

func chk(id string, fs ...string) string {
	return `{"id":"` + id + `","name":"n","status":"fail","detail":"d","findings":[` + strings.Join(fs, ",") + `]}`
}

func TestUnchanged(t *testing.T) {
	src := rep(chk("S2", s2Dead)+","+chk("S7", s7Viol), "")
	d := diff(t, src, src)
	if v, reason := d.Verdict(); v != report.Pass || reason != "0 added, 0 removed, 0 changed" || d.Unchanged != 2 {
		t.Errorf("verdict %s (%s), unchanged %d", v, reason, d.Unchanged)
	}
}

func TestAddedRemoved(t *testing.T) {
	base := rep(chk("S2")+","+chk("S5", s5Warn), "")
	cur := rep(chk("S2", s2Dead)+","+chk("S5"), "")
	d := diff(t, base, cur)
	if codesOf(d.Added) != "S2:S2_NO_TRANSITIONS" || codesOf(d.Removed) != "S5:S5_UNHANDLED_EVENT" {
		t.Errorf("added %s removed %s", codesOf(d.Added), codesOf(d.Removed))
	}
	if v, reason := d.Verdict(); v != report.Fail || reason != "1 added, 1 removed, 0 changed (first added: S2_NO_TRANSITIONS)" {
		t.Errorf("verdict %s (%s)", v, reason)
	}
	// The reverse removes the error and adds a warning.
	d = diff(t, cur, base)
	if v, _ := d.Verdict(); v != report.PassWithFindings {
		t.Errorf("reverse verdict %s", v)
	}
	// Only removals pass.
	d = diff(t, cur, rep(chk("S2")+","+chk("S5"), ""))
	if v, _ := d.Verdict(); v != report.Pass || len(d.Removed) != 1 {
		t.Errorf("removal-only verdict %s, removed %d", v, len(d.Removed))
	}
	out, _ := json.Marshal(diff(t, base, cur).JSON())
	if !strings.Contains(string(out), `"added":[{"check":"S2","code":"S2_NO_TRANSITIONS","severity":"error","message":"State \"B\" has no outgoing transitions and is not terminal","target":"B"}]`) {
		t.Errorf("json = %s", out)
	}
}

// Same evidence and path, another severity or message: changed, not
// added and removed.
func TestChanged(t *testing.T) {
	base := rep(chk("S7", strings.Replace(s7Viol, `"severity":"error"`, `"severity":"warning"`, 1)), "")
	cur := rep(chk("S7", strings.Replace(s7Viol, "after 1 step", "after one step", 1)), "")
	d := diff(t, base, cur)
	if len(d.Changed) != 1 || len(d.Added)+len(d.Removed) != 0 {
		t.Fatalf("changed %d added %d removed %d", len(d.Changed), len(d.Added), len(d.Removed))
	}
	if v, reason := d.Verdict(); v != report.Fail || reason != "0 added, 0 removed, 1 changed" {
		t.Errorf("a change to error must fail: %s (%s)", v, reason)
	}
	// A different path is a different finding.
	cur = rep(chk("S7", strings.Replace(s7Viol, `"event":"go"`, `"event":"jump"`, 1)), "")
	d = diff(t, rep(chk("S7", s7Viol), ""), cur)
	if len(d.Added) != 1 || len(d.Removed) != 1 {
		t.Errorf("path change: added %d removed %d", len(d.Added), len(d.Removed))
	}
	// Evidence key order does not matter (canonical form).
	reordered := strings.Replace(s7Viol, `{"id":"i","kind":"never-states","states":["B"]}`, `{"states":["B"],"kind":"never-states","id":"i"}`, 1)
	if d := diff(t, rep(chk("S7", s7Viol), ""), rep(chk("S7", reordered), "")); d.Unchanged != 1 {
		t.Errorf("reordered evidence did not match: %+v", d)
	}
}

// Duplicates pair up in order; the top-level findings use check "-".
func TestMultisetAndTopLevel(t *testing.T) {
	info := `{"code":"NARRATIVE_PARTIAL","severity":"info","message":"m","evidence":{"narrativeCoverage":{"states":"1/2"}}}`
	base := rep(chk("S5", s5Warn, s5Warn), "")
	cur := rep(chk("S5", s5Warn, s5Warn, s5Warn), `,"findings":[`+info+`]`)
	d := diff(t, base, cur)
	if d.Unchanged != 2 || codesOf(d.Added) != "S5:S5_UNHANDLED_EVENT,-:NARRATIVE_PARTIAL" {
		t.Errorf("unchanged %d, added %s", d.Unchanged, codesOf(d.Added))
	}
	if v, _ := d.Verdict(); v != report.PassWithFindings {
		t.Errorf("verdict %s", v)
	}
}

func TestNotAReport(t *testing.T) {
	for src, want := range map[string]string{
		`oops`:              "not JSON",
		`[]`:                "expected an object",
		`{"schema":"x/v1"}`: `"schema" must be`,
		`{"ok":false,"ran":false,"verdict":"fail","schema":"logicprobe/verify/v1","errorCode":"INPUT_NOT_JSON"}`: `"ran" is not true`,
		`{"ran":true,"verdict":"pass","schema":"logicprobe/verify/v1"}`:                                          `"checks" must be an array`,
		rep(`{"id":"S1","findings":[{"code":1}]}`, ""):                                                           "needs string code",
	} {
		_, err := Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", src, err, want)
		}
	}
}

// End to end with real reports: a dead end introduced by a change.
func TestVerifyReportsRoundTrip(t *testing.T) {
	run := func(src string) *Report {
		res, err := jsonmodel.Decode([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r, err := FromJSON(verify.Run(res, verify.DefaultOptions()).JSON())
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	good := `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B","terminal":true}],"transitions":[{"from":"A","event":"go","to":"B"}]}`
	bad := strings.Replace(good, `{"id":"B","terminal":true}`, `{"id":"B"}`, 1)
	d := Compare(run(good), run(good))
	if v, _ := d.Verdict(); v != report.Pass || d.Unchanged != 0 || len(d.Added) != 0 {
		t.Errorf("identical: %+v", d)
	}
	d = Compare(run(good), run(bad))
	if v, _ := d.Verdict(); v != report.Fail || codesOf(d.Added) != "S2:S2_NO_TRANSITIONS,S5:S5_UNHANDLED_EVENT,A1:A1_UNHANDLED_EVENT" {
		t.Errorf("dead end: %s", codesOf(d.Added))
	}
	if d.Base.ModelHash == d.Current.ModelHash || d.Base.Verdict != report.Pass || d.Current.Verdict != report.Fail {
		t.Errorf("hashes/verdicts: %+v %+v", d.Base, d.Current)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, "old.json", d, report.Style{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "FAIL  changes since old.json\n  3 added, 0 removed, 0 changed (first added: S2_NO_TRANSITIONS)\n") {
		t.Errorf("text =\n%s", buf.String())
	}
	compose := &Report{Schema: report.ComposeSchema}
	if err := run(good).Comparable(compose); err == nil {
		t.Error("verify baseline accepted a compose report")
	}
}

// The reason names the first added error, not a warning listed before it.
func TestFirstAddedNamesTheError(t *testing.T) {
	base, err := Parse([]byte(`{"schema":"logicprobe/verify/v1","ran":true,"verdict":"pass","checks":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := Parse([]byte(`{"schema":"logicprobe/verify/v1","ran":true,"verdict":"fail","checks":[{"id":"S1","findings":[
		{"code":"S1_UNREACHABLE_STATE","severity":"warning","message":"w"},
		{"code":"S2_NO_TRANSITIONS","severity":"error","message":"e"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	v, reason := Compare(base, cur).Verdict()
	if v != "fail" || !strings.Contains(reason, "first added: S2_NO_TRANSITIONS") {
		t.Errorf("%s: %q", v, reason)
	}
}
