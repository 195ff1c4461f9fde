package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
)

const (
	cmpDir     = "../../examples/compare/"
	composeDir = "../../examples/compose/"
)

// decodeReport parses a JSON report printed by the CLI.
func decodeReport(t *testing.T, out string) map[string]any {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return r
}

func checkStatus(r map[string]any) map[string]string {
	out := map[string]string{}
	for _, c := range r["checks"].([]any) {
		m := c.(map[string]any)
		out[m["id"].(string)] = m["status"].(string)
	}
	return out
}

func TestCompareExamplesGolden(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		code  int
		fails []string // D checks expected to fail
	}{
		{"compare-rename", []string{cmpDir + "rename-after.json", "--before-model", cmpDir + "rename-before.json", "--state-mapping", cmpDir + "rename-mapping.json"}, 0, nil},
		{"compare-removed-transition", []string{cmpDir + "removed-after.json", "--before", cmpDir + "removed-before.json"}, 1, []string{"D1", "D3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _, code := runCLI(t, append([]string{"verify", "--json"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			r := decodeReport(t, out)
			st := checkStatus(r)
			for _, id := range []string{"D1", "D2", "D3", "D4"} {
				want := "pass"
				if slices.Contains(c.fails, id) {
					want = "fail"
				}
				if st[id] != want {
					t.Errorf("%s = %s, want %s", id, st[id], want)
				}
			}
			if r["comparison"] == nil || r["hashes"].(map[string]any)["beforeModelHash"] == nil {
				t.Error("comparison or beforeModelHash missing")
			}
			golden(t, c.name+".json", out)
			text, _, _ := runCLI(t, append([]string{"verify", "--color", "never"}, c.args...)...)
			golden(t, c.name+".txt", text)
		})
	}
}

func TestComposeExamplesGolden(t *testing.T) {
	cases := []struct {
		name    string
		models  []string
		rdv     string
		verdict string
	}{
		{"compose-producer-consumer", []string{"producer.json", "consumer.json"}, "put", "pass"},
		{"compose-handshake", []string{"handshake-client.json", "handshake-server.json"}, "req,ack", "fail"},
		{"compose-chain", []string{"chain-source.json", "chain-relay.json", "chain-sink.json"}, "hand,pass,eof", "pass"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := []string{"compose", "--rendezvous", c.rdv}
			for _, m := range c.models {
				args = append(args, composeDir+m)
			}
			out, _, code := runCLI(t, append(args, "--json")...)
			r := decodeReport(t, out)
			if r["schema"] != "logicprobe/compose/v1" || r["verdict"] != c.verdict {
				t.Errorf("schema %v verdict %v", r["schema"], r["verdict"])
			}
			if want := map[bool]int{true: 1, false: 0}[c.verdict == "fail"]; code != want || r["exit_code"] != float64(code) {
				t.Errorf("exit %d, report exit_code %v", code, r["exit_code"])
			}
			golden(t, c.name+".json", out)
			text, _, _ := runCLI(t, append(args, "--color", "never")...)
			golden(t, c.name+".txt", text)
		})
	}
}

func TestComposeInvalidAndRefusals(t *testing.T) {
	out, _, code := runCLI(t, "compose", composeDir+"producer.json", "--json")
	r := decodeReport(t, out)
	if code != 2 || r["ok"] != false || r["ran"] != false || r["errorCode"] != "BAD_OPTION" || !strings.Contains(out, "two or more machines (got 1)") {
		t.Errorf("one machine: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "bad.json")
	os.WriteFile(notJSON, []byte("{oops"), 0o644)
	p, c := composeDir+"producer.json", composeDir+"consumer.json"
	cases := []struct {
		args      []string
		code, msg string
	}{
		{[]string{p, filepath.Join(dir, "missing.json")}, "INPUT_UNREADABLE", "cannot read"},
		{[]string{p, notJSON}, "INPUT_NOT_JSON", "bad.json"},
		{[]string{p, c, "--rendezvous", "put,,x"}, "BAD_OPTION", "empty event name"},
		{[]string{p, c, "--max-states", "0"}, "BAD_OPTION", "--max-states"},
		{[]string{p, c, "--baseline", p}, "BASELINE_INVALID", "not a report"},
	}
	for _, cs := range cases {
		out, _, code := runCLI(t, append(append([]string{"compose"}, cs.args...), "--json")...)
		r := decodeReport(t, out)
		if code != 2 || r["ran"] != false || r["errorCode"] != cs.code || r["schema"] != "logicprobe/compose/v1" || !strings.Contains(r["error"].(string), cs.msg) {
			t.Errorf("%v: exit %d, %v", cs.args, code, r)
		}
	}
}

func TestVerifyComparisonRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(data), 0o644)
		return p
	}
	after, before := cmpDir+"rename-after.json", cmpDir+"rename-before.json"
	cases := []struct {
		args      []string
		code, msg string
	}{
		{[]string{after, "--before-model", before, "--state-mapping", write("typo.json", `{"SHIPED": "IN_TRANSIT"}`)}, "BAD_OPTION", `stateMapping key "SHIPED" is not a state of the BEFORE model`},
		{[]string{after, "--before-model", before, "--state-mapping", write("list.json", `["SHIPPED"]`)}, "BAD_OPTION", "found array"},
		{[]string{after, "--before-model", before, "--state-mapping", write("num.json", `{"SHIPPED": 1}`)}, "BAD_OPTION", "found number"},
		{[]string{after, "--state-mapping", cmpDir + "rename-mapping.json"}, "BAD_OPTION", "needs --before-model"},
		{[]string{after, "--before-model", filepath.Join(dir, "nope.json")}, "INPUT_UNREADABLE", "cannot read before model"},
		{[]string{after, "--before-model", write("bad.json", "{x")}, "INPUT_NOT_JSON", "before model"},
		{[]string{after, "--baseline", after}, "BASELINE_INVALID", "not a report"},
		{[]string{after, "--baseline", after, "--hash-check", "00"}, "BAD_OPTION", "--hash-check"},
	}
	for _, c := range cases {
		out, _, code := runCLI(t, append(append([]string{"verify"}, c.args...), "--json")...)
		r := decodeReport(t, out)
		if code != 2 || r["ran"] != false || r["errorCode"] != c.code || !strings.Contains(r["error"].(string), c.msg) {
			t.Errorf("%v: exit %d, %v", c.args, code, r)
		}
	}
	// An invalid BEFORE model is a finding, not a refusal.
	out, _, code := runCLI(t, "verify", after, "--before-model", "../../examples/broken/invalid-typo.json", "--json")
	r := decodeReport(t, out)
	if code != 2 || r["ok"] != false || r["ran"] != true || !strings.Contains(out, `"code": "BEFORE_MODEL_INVALID"`) || !strings.Contains(out, `"beforeModel.transitions[0].gaurd: unknown field`) {
		t.Errorf("invalid BEFORE: exit %d\n%s", code, out)
	}
}

func TestBaselineCLI(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	if _, _, code := runCLI(t, "verify", cmpDir+"removed-before.json", "--json", "-o", base); code != 0 {
		t.Fatalf("writing the baseline: exit %d", code)
	}
	// The same model against its own report: nothing changed.
	out, _, code := runCLI(t, "verify", cmpDir+"removed-before.json", "--baseline", base, "--json")
	r := decodeReport(t, out)
	if code != 0 || r["schema"] != "logicprobe/baseline/v1" || r["verdict"] != "pass" || r["verdictReason"] != "0 added, 0 removed, 0 changed" {
		t.Errorf("unchanged: exit %d, %v", code, r)
	}
	// The change, compared with BEFORE: D1-D4 findings are added, D1's is
	// an error, so the delta fails.
	out, _, code = runCLI(t, "verify", cmpDir+"removed-after.json", "--before", cmpDir+"removed-before.json", "--baseline", base, "--json")
	r = decodeReport(t, out)
	added, _ := json.Marshal(r["added"])
	if code != 1 || r["verdict"] != "fail" || !strings.Contains(string(added), `"code":"D1_EVENT_DISABLED"`) {
		t.Errorf("regression: exit %d, %v\nadded: %s", code, r["verdictReason"], added)
	}
	text, _, _ := runCLI(t, "verify", cmpDir+"removed-after.json", "--before", cmpDir+"removed-before.json", "--baseline", base, "--color", "never")
	if !strings.Contains(text, "path: LOCKED --emergency_release--> OPEN") {
		t.Errorf("text diff:\n%s", text)
	}
	// compose: a deadlock added since a passing composition fails.
	cbase := filepath.Join(dir, "compose.json")
	runCLI(t, "compose", composeDir+"handshake-client.json", composeDir+"producer.json", "--json", "-o", cbase)
	out, _, code = runCLI(t, "compose", composeDir+"handshake-client.json", composeDir+"handshake-server.json", "--rendezvous", "req,ack", "--baseline", cbase, "--json")
	r = decodeReport(t, out)
	if code != 1 || r["verdict"] != "fail" || !strings.Contains(r["verdictReason"].(string), "C1_COMPOSITION_DEADLOCK") {
		t.Errorf("compose baseline: exit %d, %v", code, r)
	}
	// A compose report is no baseline for verify.
	out, _, code = runCLI(t, "verify", cmpDir+"removed-before.json", "--baseline", cbase, "--json")
	if r := decodeReport(t, out); code != 2 || r["errorCode"] != "BASELINE_INVALID" {
		t.Errorf("cross-schema baseline: exit %d, %v", code, r)
	}
}

// counterJSON counts without bound, so every capped search stops at its
// cap; it has no error finding.
const counterJSON = `{"schemaVersion": 1, "init": "RUN",
 "states": [{"id": "RUN"}, {"id": "DONE", "terminal": true}],
 "transitions": [{"from": "RUN", "event": "tick", "to": "RUN", "updates": [{"variable": "c", "op": "inc"}]},
                 {"from": "RUN", "event": "stop", "to": "DONE"}],
 "variables": [{"name": "c", "kind": "integer", "init": 0}],
 "invariants": [{"id": "nonneg", "description": "c stays non-negative", "kind": "var-in-range", "variable": "c", "min": 0}]}`

// A check not decided (a search stopped at its cap) with no error finding
// exits 3 for verify and compose, and 0 with --allow-undecided; the
// verdict is not_decided (never a pass, issue 29.6), its reason counts the
// checks, and the text headline says NOT DECIDED.
func TestUndecidedExitsThree(t *testing.T) {
	counter := writeTemp(t, "counter.json", counterJSON)
	other := writeTemp(t, "spin.json", `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": [{"from": "A", "event": "spin", "to": "A"}]}`)
	for _, args := range [][]string{
		{"verify", counter, "--max-states", "50"},
		{"compose", counter, other, "--max-states", "50"},
	} {
		out, _, code := runCLI(t, append(args, "--json")...)
		r := decodeReport(t, out)
		if code != 3 || r["verdict"] != "not_decided" || !strings.Contains(r["verdictReason"].(string), "not decided") {
			t.Errorf("%v: exit %d, verdict %v (%v); want 3, not_decided, \"… not decided\"", args, code, r["verdict"], r["verdictReason"])
		}
		schematest.Report(t, strings.Join(args, " "), []byte(out))
		text, _, _ := runCLI(t, args...)
		if head, _, _ := strings.Cut(text, "\n"); !strings.HasPrefix(head, "NOT DECIDED") || strings.Contains(text, "PASS") {
			t.Errorf("%v: text headline %q; want NOT DECIDED and no PASS anywhere", args, head)
		}
		if _, _, code := runCLI(t, append(args, "--allow-undecided")...); code != 0 {
			t.Errorf("%v --allow-undecided: exit %d, want 0", args, code)
		}
	}
	// A baseline diff of two capped runs carries their not_decided
	// verdicts and still satisfies its schema.
	first, _, _ := runCLI(t, "verify", counter, "--max-states", "50", "--json")
	base := writeTemp(t, "base.json", first)
	diff, _, _ := runCLI(t, "verify", counter, "--max-states", "50", "--json", "--baseline", base)
	if d := decodeReport(t, diff); d["currentVerdict"] != "not_decided" || d["baselineVerdict"] != "not_decided" {
		t.Errorf("baseline diff verdicts %v / %v, want not_decided", d["baselineVerdict"], d["currentVerdict"])
	}
	schematest.Report(t, "baseline diff of capped runs", []byte(diff))
	if out, _, _ := runCLI(t, "compose", counter, other, "--max-states", "50"); strings.Contains(out, "passed: C1") || !strings.Contains(out, "C1_UNDECIDED") {
		t.Errorf("compose at its cap claims C1:\n%s", out)
	}
}
