package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
	"github.com/stateproof/stateproof/internal/z3"
)

const inspectModel = `def int unused = 0;
state Root {
    state A;
    state B;
    state Orphan;
    [*] -> A;
    A -> B :: Go;
    B -> A :: Back;
}
`

// TestInspectExitCodes: 0 when no error-severity diagnostic, 2 when the
// model does not load or the usage is wrong (with the message naming the
// flag).
func TestInspectExitCodes(t *testing.T) {
	dir := fmtDir(t, map[string]string{
		"ok.fcstm":  inspectModel,
		"bad.fcstm": "state Root { state A; state A; [*] -> A; }\n",
	})
	ok, bad := filepath.Join(dir, "ok.fcstm"), filepath.Join(dir, "bad.fcstm")
	out, errOut, code := runCLI(t, "inspect", ok)
	if code != 0 || !strings.Contains(out, "ok.fcstm:5:11: warning W_UNREACHABLE_STATE:") || !strings.Contains(out, "W_UNREFERENCED_VAR") || errOut != "" {
		t.Errorf("clean model: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = runCLI(t, "inspect", bad)
	if code != exitInput || !strings.Contains(out, "error E_DUPLICATE_STATE") || !strings.Contains(out, "does not load") {
		t.Errorf("model that does not load: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"inspect", "--format", "yaml", ok},
		{"inspect", "--ignore", "unused", ok},
		{"inspect", filepath.Join(dir, "missing.fcstm")},
		{"inspect"},
	} {
		_, errOut, code := runCLI(t, args...)
		if code != exitInput || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	_, errOut, _ = runCLI(t, "inspect", "--ignore", "W_OK,nope", ok)
	if !strings.Contains(errOut, "--ignore") || !strings.Contains(errOut, `"nope"`) {
		t.Errorf("--ignore refusal does not name the flag and entry: %q", errOut)
	}
}

// TestInspectJSON pins the JSON document: schema, diagnostics with span
// and refs, and the suppressed count.
func TestInspectJSON(t *testing.T) {
	dir := fmtDir(t, map[string]string{"m.fcstm": inspectModel})
	out, _, code := runCLI(t, "inspect", "--format", "json", "--ignore", "W_LEAF_NO_OUTGOING_TRANSITION", filepath.Join(dir, "m.fcstm"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var doc struct {
		Schema      string `json:"schema"`
		Loaded      bool   `json:"loaded"`
		Suppressed  int    `json:"suppressed"`
		Diagnostics []struct {
			Code, Severity, Message, Basis string
			Span                           struct {
				Line      int `json:"line"`
				Column    int `json:"column"`
				EndLine   int `json:"end_line"`
				EndColumn int `json:"end_column"`
			}
			Refs map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Schema != "stateproof/inspect/v1" || !doc.Loaded || doc.Suppressed != 1 {
		t.Errorf("document %s", out)
	}
	found := false
	for _, d := range doc.Diagnostics {
		if d.Code == "W_UNREACHABLE_STATE" {
			found = true
			if d.Severity != "warning" || d.Basis != "structural" || d.Refs["state_path"] != "Root.Orphan" || d.Span.Line != 5 || d.Span.Column != 11 || d.Span.EndColumn != 17 {
				t.Errorf("W_UNREACHABLE_STATE: %+v", d)
			}
		}
		if d.Code == "W_LEAF_NO_OUTGOING_TRANSITION" {
			t.Errorf("ignored code reported: %+v", d)
		}
	}
	if !found {
		t.Errorf("no W_UNREACHABLE_STATE in %s", out)
	}
}

// TestInspectJSONSatisfiesSchema: the document of `inspect --format json`
// satisfies schemas/inspect.schema.json, for the examples, a model with
// diagnostics of every severity, and models that do not load; and the
// schema is not vacuous: a document without its code, or with a load
// failure of warning severity, is refused.
func TestInspectJSONSatisfiesSchema(t *testing.T) {
	dir := fmtDir(t, map[string]string{
		"m.fcstm":      inspectModel,
		"info.fcstm":   "state R {\n state P { state In; [*] -> In; In -> In :: Tick; }\n [*] -> P;\n P -> P :: Again;\n}\n",
		"syntax.fcstm": "state R {\n state A\n}\n",
		"dup.fcstm":    "state R { state A; state A; [*] -> A; }\n",
	})
	files, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	for _, name := range []string{"m", "info", "syntax", "dup"} {
		files = append(files, filepath.Join(dir, name+".fcstm"))
	}
	var last string // the document of dup.fcstm, a load failure
	var runs [][]string
	for _, f := range files {
		runs = append(runs, []string{f})
	}
	smtModel := filepath.Join(dir, "smt.fcstm")
	if err := os.WriteFile(smtModel, []byte("def int x = 0;\ndef float f = 0.5;\nstate R {\n state A;\n state B;\n [*] -> A;\n A -> B : if [x > 1 && x < 0];\n B -> A : if [f > 1.0];\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ctx, err := z3.NewContext(); err == nil {
		ctx.Close()
		runs = append(runs, []string{"--smt", smtModel})
	}
	for _, run := range runs {
		f := run[len(run)-1]
		out, errOut, _ := runCLI(t, append([]string{"inspect", "--format", "json"}, run...)...)
		if out == "" {
			t.Errorf("%s: no document (%s)", f, errOut)
			continue
		}
		schematest.Report(t, "inspect "+strings.Join(run, " "), []byte(out))
		if strings.HasSuffix(f, "dup.fcstm") {
			last = out
		}
	}
	for _, bad := range []string{
		strings.Replace(last, `"code": "E_DUPLICATE_STATE",`, "", 1),
		strings.Replace(last, `"severity": "error"`, `"severity": "warning"`, 1),
	} {
		if bad == last || schematest.Validate(t, "inspect", []byte(bad)) == nil {
			t.Errorf("the schema accepts a broken document:\n%s", bad)
		}
	}
}

// TestInspectSMTFlags: --smt reports the SMT-backed codes and lists the
// questions it could not decide; --timeout-ms without --smt, or below 1,
// is a usage error.
func TestInspectSMTFlags(t *testing.T) {
	dir := fmtDir(t, map[string]string{"m.fcstm": "def int x = 0;\ndef float f = 0.5;\nstate R {\n state A;\n state B;\n [*] -> A;\n A -> B : if [x > 1 && x < 0];\n B -> A : if [f > 1.0];\n}\n"})
	path := filepath.Join(dir, "m.fcstm")
	for _, args := range [][]string{{"--timeout-ms", "100"}, {"--smt", "--timeout-ms", "0"}} {
		if _, errOut, code := runCLI(t, append([]string{"inspect", path}, args...)...); code != 2 || !strings.Contains(errOut, "--timeout-ms") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
	if out, _, _ := runCLI(t, "inspect", path); strings.Contains(out, "W_DEAD_GUARD") {
		t.Errorf("without --smt: %s", out)
	}
	if ctx, err := z3.NewContext(); err != nil {
		t.Skip("libz3 is not installed")
	} else {
		ctx.Close()
	}
	out, _, code := runCLI(t, "inspect", "--smt", "--timeout-ms", "5000", path)
	if code != 0 || !strings.Contains(out, ":7:15: warning W_DEAD_GUARD:") || !strings.Contains(out, ":8:15: undecided W_DEAD_GUARD: it reads f") || !strings.Contains(out, "1 undecided") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestInspectSearchFlags: --search reports the leaf no run reaches with
// basis search and its evidence, in JSON and SARIF; a search stopped at
// its cap claims nothing; --max-states without --search, or below 1, is a
// usage error.
func TestInspectSearchFlags(t *testing.T) {
	dir := fmtDir(t, map[string]string{"m.fcstm": "def int x = 0;\nstate R {\n    state A;\n    state B;\n    [*] -> A;\n    A -> B : if [x > 0];\n}\n"})
	path := filepath.Join(dir, "m.fcstm")
	for _, args := range [][]string{{"--max-states", "10"}, {"--search", "--max-states", "0"}, {"--search", "--timeout-ms", "0"}} {
		if _, errOut, code := runCLI(t, append([]string{"inspect", path}, args...)...); code != 2 || !strings.Contains(errOut, args[len(args)-2]) {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
	if out, _, _ := runCLI(t, "inspect", path); strings.Contains(out, "W_UNREACHABLE_STATE") {
		t.Errorf("without --search:\n%s", out)
	}
	out, _, code := runCLI(t, "inspect", "--search", path)
	if code != 0 || !strings.Contains(out, ":4:11: warning W_UNREACHABLE_STATE: state R.B is never entered") {
		t.Errorf("--search: exit %d\n%s", code, out)
	}
	out, _, _ = runCLI(t, "inspect", "--search", "--max-states", "1", path)
	if strings.Contains(out, "warning W_UNREACHABLE_STATE") || !strings.Contains(out, "undecided W_UNREACHABLE_STATE: the search stopped at the state cap (--max-states 1)") {
		t.Errorf("--max-states 1:\n%s", out)
	}
	out, _, _ = runCLI(t, "inspect", "--search", "--format", "sarif", path)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID     string `json:"ruleId"`
				Properties struct {
					Basis string         `json:"basis"`
					Refs  map[string]any `json:"refs"`
				} `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "W_UNREACHABLE_STATE" {
			found = r.Properties.Basis == "search" && r.Properties.Refs["configurations_searched"] != nil
		}
	}
	if !found {
		t.Errorf("no W_UNREACHABLE_STATE with basis search and its evidence in the SARIF log:\n%s", out)
	}
}

// TestInspectThresholdFlags: the size codes follow the threshold flags
// (pyfcstm's defaults without them), and a negative or non-finite
// threshold is refused with the flag named.
func TestInspectThresholdFlags(t *testing.T) {
	dir := fmtDir(t, map[string]string{"m.fcstm": "state R {\n    state A {\n        state A1;\n        [*] -> A1;\n    }\n    state B;\n    state C;\n    [*] -> A;\n}\n"})
	path := filepath.Join(dir, "m.fcstm")
	for _, args := range [][]string{{"--deep-hierarchy-threshold", "-1"}, {"--large-composite-threshold", "-2"}, {"--var-to-leaf-ratio-threshold", "NaN"}, {"--var-to-leaf-ratio-threshold", "+Inf"}} {
		if _, errOut, code := runCLI(t, append([]string{"inspect", path}, args...)...); code != 2 || !strings.Contains(errOut, args[0]) {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
	out, _, _ := runCLI(t, "inspect", path)
	if strings.Contains(out, "W_DEEP_HIERARCHY") || strings.Contains(out, "W_LARGE_COMPOSITE") {
		t.Errorf("within the defaults:\n%s", out)
	}
	out, _, code := runCLI(t, "inspect", path, "--deep-hierarchy-threshold", "1", "--large-composite-threshold", "2")
	if code != 0 || !strings.Contains(out, ":3:15: warning W_DEEP_HIERARCHY:") || !strings.Contains(out, ":1:1: warning W_LARGE_COMPOSITE:") {
		t.Errorf("lowered thresholds: exit %d\n%s", code, out)
	}
}
