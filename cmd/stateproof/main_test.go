package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"github.com/stateproof/stateproof/internal/schematest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/stateproof/stateproof/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden reports under testdata/golden")

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Compare(t, name, []byte(got), *update)
}

func examples(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../../examples/*.json", "../../examples/broken/*.json"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 8 {
		t.Fatalf("found only %d examples", len(files))
	}
	return files
}

func goldenName(path string) string {
	rel := strings.TrimPrefix(filepath.ToSlash(path), "../../examples/")
	return strings.ReplaceAll(strings.TrimSuffix(rel, ".json"), "/", "-")
}

func TestExampleReportsGolden(t *testing.T) {
	for _, f := range examples(t) {
		t.Run(goldenName(f), func(t *testing.T) {
			out, _, code := runCLI(t, "verify", f, "--json")
			var rep struct {
				OK       bool   `json:"ok"`
				Verdict  string `json:"verdict"`
				Schema   string `json:"schema"`
				ExitCode *int   `json:"exit_code"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("report is not JSON: %v", err)
			}
			if rep.Schema != "logicprobe/verify/v1" {
				t.Errorf("schema = %q", rep.Schema)
			}
			wantCode := 0 // docs/reports.md#exit-codes
			switch {
			case !rep.OK:
				wantCode = 2
			case rep.Verdict == "fail":
				wantCode = 1
			}
			if code != wantCode {
				t.Errorf("exit %d for verdict %s (ok %v)", code, rep.Verdict, rep.OK)
			}
			if rep.ExitCode == nil || *rep.ExitCode != code {
				t.Errorf("report exit_code %v, process exit %d", rep.ExitCode, code)
			}
			golden(t, goldenName(f)+".json", out)
			again, _, _ := runCLI(t, "verify", f, "--json")
			if again != out {
				t.Error("two runs over the same model differ")
			}
		})
	}
}

func TestTextReportGolden(t *testing.T) {
	for _, name := range []string{"order", "broken/s7-scoped-range"} {
		out, _, _ := runCLI(t, "verify", "../../examples/"+name+".json", "--color", "never")
		golden(t, strings.ReplaceAll(name, "/", "-")+".txt", out)
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "bad.json")
	os.WriteFile(notJSON, []byte("{\"schemaVersion\": 1,\n  \"init\": oops}"), 0o644)
	cases := []struct {
		args      []string
		code, msg string
	}{
		{[]string{"verify", filepath.Join(dir, "missing.json"), "--json"}, "INPUT_UNREADABLE", "cannot read"},
		{[]string{"verify", notJSON, "--json"}, "INPUT_NOT_JSON", "2:11: unexpected 'o'"},
		{[]string{"verify", "../../examples/order.json", "--json", "--max-states", "0"}, "BAD_OPTION", "--max-states"},
		{[]string{"verify", "../../examples/order.json", "--json", "--hash-spec", "v9"}, "BAD_OPTION", "--hash-spec"},
		{[]string{"verify", "../../examples/order.json", "--json", "--max-permutation-events", "12"}, "BAD_OPTION", "from 1 to 8"},
	}
	for _, c := range cases {
		out, _, code := runCLI(t, c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d", c.args, code)
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: refusal is not JSON: %q", c.args, out)
		}
		if r["ran"] != false || r["ok"] != false || r["verdict"] != "fail" || r["errorCode"] != c.code || !strings.Contains(r["error"].(string), c.msg) {
			t.Errorf("%v: refusal = %v", c.args, r)
		}
	}
	// Without --json the refusal is one line on stderr.
	_, stderr, code := runCLI(t, "verify", notJSON)
	if code != 2 || !strings.Contains(stderr, "INPUT_NOT_JSON") || !strings.Contains(stderr, "2:11") {
		t.Errorf("text refusal: exit %d, stderr %q", code, stderr)
	}
}

func TestInvalidModelReport(t *testing.T) {
	out, _, code := runCLI(t, "verify", "../../examples/broken/invalid-typo.json", "--json")
	if code != 2 {
		t.Errorf("exit %d", code)
	}
	var r struct {
		OK        bool     `json:"ok"`
		Ran       bool     `json:"ran"`
		ModelHash string   `json:"modelHash"`
		NextSteps []string `json:"nextSteps"`
		Summary   struct {
			ChecksRun int   `json:"checksRun"`
			Truncated *bool `json:"truncated"`
		} `json:"summary"`
		Checks []struct {
			ID       string `json:"id"`
			Findings []struct {
				Message string `json:"message"`
			} `json:"findings"`
		} `json:"checks"`
		MetadataKeys []string `json:"metadataKeys"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.OK || !r.Ran || r.ModelHash != "" || r.Summary.ChecksRun != 0 || r.Summary.Truncated != nil {
		t.Errorf("invalid-model shape wrong: %+v", r)
	}
	if len(r.Checks) != 1 || r.Checks[0].ID != "MODEL" {
		t.Fatalf("checks = %+v", r.Checks)
	}
	msgs := ""
	for _, f := range r.Checks[0].Findings {
		msgs += f.Message + "\n"
	}
	for _, want := range []string{
		`transitions[0].gaurd: unknown field for transition`,
		`invariants[0].description: required field missing`,
		`invariants[0].maximum: unknown field for kind var-in-range`,
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("messages lack %q:\n%s", want, msgs)
		}
	}
	if !strings.Contains(strings.Join(r.NextSteps, "\n"), `Add a "description" string to invariants[0]`) {
		t.Errorf("nextSteps = %q", r.NextSteps)
	}
	if len(r.MetadataKeys) != 1 || r.MetadataKeys[0] != "_why" {
		t.Errorf("metadataKeys = %q", r.MetadataKeys)
	}
}

func TestHashCheck(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "a.json")
	os.WriteFile(model, []byte(`{"_source":"docs/uml/order.model.json","schemaVersion":1,"init":"INIT","states":[{"id":"INIT","_note":"power-on"},{"id":"ACTIVE","terminal":true}],"transitions":[{"from":"INIT","event":"go","to":"ACTIVE"}]}`), 0o644)
	const v0 = "ae637d559f4683d8a0ce3a5c6d007ff378b1df41eac14eb82068038f39665e76"
	out, _, code := runCLI(t, "verify", model, "--hash-check", strings.ToUpper(v0), "--json") // every spec is tried
	var r map[string]any
	json.Unmarshal([]byte(out), &r)
	if code != 0 || r["verdict"] != "pass" || r["verdictReason"] != "reproduced by v0" || r["checked"] != v0 {
		t.Errorf("hash-check v0: exit %d, %v", code, r)
	}
	miss := strings.Repeat("00ff", 16)
	out, _, code = runCLI(t, "verify", model, "--hash-check", miss, "--json")
	json.Unmarshal([]byte(out), &r)
	if code != 2 || r["verdict"] != "fail" || r["verdictReason"] != "no published hash spec reproduces "+miss {
		t.Errorf("hash-check miss: exit %d, %v", code, r)
	}
	// --hash-spec v0 changes only the top-level modelHash.
	out, _, _ = runCLI(t, "verify", model, "--hash-spec", "v0", "--json")
	json.Unmarshal([]byte(out), &r)
	if r["modelHash"] != v0 || r["hashSpec"] != "v0" {
		t.Errorf("v0 report: %v %v", r["hashSpec"], r["modelHash"])
	}
}

func TestOutputFileIsWritten(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.json")
	out, _, code := runCLI(t, "verify", "../../examples/order.json", "--json", "-o", target)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	data, err := os.ReadFile(target)
	if err != nil || !json.Valid(data) {
		t.Fatalf("report file: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestUsageErrors(t *testing.T) {
	if _, stderr, code := runCLI(t, "verify"); code != 2 || !strings.Contains(stderr, "accepts 1 arg") {
		t.Errorf("missing argument: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "verify", "x.json", "--no-such-flag"); code != 2 || !strings.Contains(stderr, "unknown flag") {
		t.Errorf("unknown flag: exit %d, %q", code, stderr)
	}
	if out, _, code := runCLI(t, "gen", "toggles", "3"); code != 0 || !json.Valid([]byte(out)) {
		t.Errorf("gen toggles: exit %d", code)
	}
	if _, stderr, code := runCLI(t, "gen", "spiral", "3"); code != 2 || !strings.Contains(stderr, "unknown family") {
		t.Errorf("gen unknown: exit %d, %q", code, stderr)
	}
}

func TestSARIF(t *testing.T) {
	out, _, code := runCLI(t, "verify", "../../examples/broken/invalid-typo.json", "--format", "sarif")
	if code != 2 {
		t.Errorf("exit %d: SARIF keeps the verdict's exit code", code)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("log = %+v", log)
	}
	r := log.Runs[0].Results[0]
	loc := r.Locations[0].PhysicalLocation
	// `"gaurd"` stands on line 7 of the example.
	if r.RuleID != "MODEL_INVALID" || r.Level != "error" || loc.Region.StartLine != 7 || !strings.HasSuffix(loc.ArtifactLocation.URI, "invalid-typo.json") {
		t.Errorf("first result = %+v", r)
	}
	schematest.SARIF(t, "verify invalid-typo.json", []byte(out))
}
