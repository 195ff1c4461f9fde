package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
)

func bmcJSON(t *testing.T, args ...string) (map[string]any, int) {
	t.Helper()
	out, stderr, code := runCLI(t, append([]string{"bmc", "--json"}, args...)...)
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("bmc %v: not JSON (exit %d, stderr %q): %v", args, code, stderr, err)
	}
	if doc["exit_code"] != float64(code) {
		t.Errorf("exit_code %v in the report, process exit %d", doc["exit_code"], code)
	}
	// Every report, whatever its outcome, satisfies its own contract.
	schematest.Report(t, "bmc "+strings.Join(args, " "), []byte(out))
	return doc, code
}

func field(doc map[string]any, path ...string) any {
	var cur any = doc
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The seed's `state Root;` examples, as a one-state JSON model.
const rootJSON = `{"schemaVersion": 1, "init": "Root", "states": [{"id": "Root"}], "transitions": []}`

func TestBMCOutcomesAndExitCodes(t *testing.T) {
	root := writeTemp(t, "root.json", rootJSON)
	cases := []struct {
		args    []string
		outcome string
		exit    int
		replay  any // true, false, or nil when there is no model
	}{
		{[]string{"../../examples/order.json", "--check", `check reach <= 6: active("SHIPPED") && retry == 2;`}, "witness_found", 0, true},
		{[]string{"-i", "../../examples/order.json", "-q", "../../examples/queries/order-paid.fbmcq"}, "property_satisfied", 0, nil},
		{[]string{"../../examples/order.json", "-q", "../../examples/queries/order-shipping-responds.fbmcq"}, "property_violated", 1, true},
		{[]string{"../../examples/order.json", "-q", "../../examples/queries/order-impossible.fbmcq"}, "scenario_infeasible", 3, nil},
		{[]string{"../../examples/order.json", "--check", `check reach <= 3: active("DONE") && retry == 3;`}, "no_witness", 1, nil},
		{[]string{root, "--check", `check response <= 1: trigger true -> within 2 false;`}, "incomplete", 3, true},
		{[]string{root, "--check", `check reach <= 1: active("Root");`}, "witness_found", 0, true},
	}
	for _, c := range cases {
		doc, code := bmcJSON(t, c.args...)
		if got := field(doc, "result", "outcome"); got != c.outcome || code != c.exit {
			t.Errorf("%v: outcome %v exit %d, want %s exit %d", c.args, got, code, c.outcome, c.exit)
		}
		if got := field(doc, "replay", "ok"); got != c.replay {
			t.Errorf("%v: replay.ok = %v, want %v", c.args, got, c.replay)
		}
		if doc["schema"] != "stateproof/bmc/v1" {
			t.Errorf("schema = %v", doc["schema"])
		}
	}
	// The incomplete response keeps its tail model as an incomplete suffix.
	doc, _ := bmcJSON(t, root, "--check", `check response <= 1: trigger true -> within 2 false;`)
	if roles := field(doc, "result", "available_model_roles"); len(roles.([]any)) != 1 || roles.([]any)[0] != "incomplete_suffix" {
		t.Errorf("roles = %v", roles)
	}
}

func TestBMCShortestAndTrace(t *testing.T) {
	doc, _ := bmcJSON(t, "../../examples/order.json", "--shortest", "--check", `check reach <= 8: active("SHIPPED") && retry == 2;`)
	steps := field(doc, "witness", "steps").([]any)
	if len(steps) != 4 {
		t.Fatalf("shortest witness has %d steps, want 4", len(steps))
	}
	first := steps[0].(map[string]any)
	if first["case_label"] != "NEW::transition::PAID::0" || first["consumed_events"].([]any)[0] != "pay" {
		t.Errorf("step 0 = %v", first)
	}
	frame := field(doc, "witness", "frames").([]any)[4].(map[string]any)
	if frame["state"] != "SHIPPED" || field(frame, "vars", "retry") != float64(2) {
		t.Errorf("frame 4 = %v", frame)
	}
}

func TestBMCBoundChecksModelInvariants(t *testing.T) {
	doc, code := bmcJSON(t, "../../examples/broken/s7-scoped-range.json", "--bound", "6")
	checks := doc["checks"].([]any)
	if code != 1 || len(checks) != 1 {
		t.Fatalf("exit %d, %d checks", code, len(checks))
	}
	c := checks[0].(map[string]any)
	if field(c, "result", "outcome") != "property_violated" || field(c, "replay", "ok") != true {
		t.Errorf("check = %v", field(c, "result", "outcome"))
	}
	if _, code := bmcJSON(t, "../../examples/retry.json", "--bound", "20"); code != 0 {
		t.Errorf("retry.json --bound 20: exit %d", code)
	}
}

func TestBMCInputErrors(t *testing.T) {
	bad := writeTemp(t, "bad.fbmcq", "check reach <= 3:\n  active(\"NOPE\");\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"bmc", "../../examples/order.json", "-q", bad}, `bad.fbmcq:2:10: unknown state "NOPE"`},
		{[]string{"bmc", "../../examples/order.json", "--check", "check reach <= : true;"}, `<check>:1:16: expected an integer bound`},
		{[]string{"bmc", "../../examples/order.json"}, "give exactly one of"},
		{[]string{"bmc", "../../examples/order.json", "--bound", "0"}, "--bound must be an integer >= 1"},
		{[]string{"bmc", "../../examples/order.json", "--check", "check reach <= 9: true;", "--max-bound", "5"}, "query_shape"},
		{[]string{"bmc", "../../examples/broken/invalid-typo.json", "--bound", "3"}, "not a valid model"},
		{[]string{"bmc", "../../examples/order.json", "--check", "check reach <= 2: true;", "--explain", "why"}, "--explain must be none, formal or proof"},
		{[]string{"bmc", "../../examples/order.json", "--check", "check reach <= 2: sin(retry) > 0;"}, "unsupported"},
	}
	for _, c := range cases {
		out, stderr, code := runCLI(t, c.args...)
		if code != 2 || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, stderr, c.want)
		}
	}
}

// TestBMCExplainCLI: issue 7's two-line query through the command, both
// flag spellings, and a feasible scenario that needs no explanation.
func TestBMCExplainCLI(t *testing.T) {
	q := writeTemp(t, "two.fbmcq", "assume at 1: var(\"retry\") == 1;\nassume at 1: var(\"retry\") == 2;\ncheck reach <= 1: true;\n")
	for _, flag := range []string{"--explain", "--explain-infeasibility"} {
		doc, code := bmcJSON(t, "../../examples/order.json", "-q", q, flag, "proof")
		if code != 3 {
			t.Fatalf("%s: exit %d, want 3", flag, code)
		}
		ex, _ := field(doc, "result", "feasibility", "explanation").(map[string]any)
		if ex == nil || ex["classification"] != "assumptions_self_conflict" || ex["achieved_mode"] != "proof" || ex["status"] != "complete" {
			t.Fatalf("%s: explanation %v", flag, ex)
		}
		if got := field(doc, "result", "feasibility", "refinement_status"); got != "complete" {
			t.Errorf("%s: refinement_status %v", flag, got)
		}
		if field(doc, "result", "feasibility", "refinement_reason") != ex["reason"] {
			t.Errorf("%s: refinement_reason differs from explanation.reason", flag)
		}
	}
	out, _, _ := runCLI(t, "bmc", "../../examples/order.json", "-q", q, "--explain", "proof")
	for _, want := range []string{"COMPLETE VERIFIED DOMAIN PROOF", "Classification: assumptions_self_conflict", "Core size: 2",
		"Reduction: subset_minimal", "Subset minimality: proven", "two.fbmcq:1:1", "two.fbmcq:2:1", "3. These cannot hold together"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	doc, _ := bmcJSON(t, "../../examples/order.json", "--check", "check reach <= 2: true;", "--explain", "formal")
	if field(doc, "result", "feasibility", "explanation") != nil || field(doc, "result", "feasibility", "refinement_status") != "not_needed" {
		t.Errorf("feasible scenario: %v", field(doc, "result", "feasibility"))
	}
	doc, _ = bmcJSON(t, "../../examples/order.json", "--check", "check reach <= 2: true;")
	if field(doc, "result", "feasibility", "refinement_status") != "not_requested" {
		t.Errorf("no --explain: %v", field(doc, "result", "feasibility", "refinement_status"))
	}
}

// namedCounter is a model whose variable called name goes from 0 to 1 in
// one step; the invariant bounds it by max, in the scope of a guard on the
// variable called scope (always true).
func namedCounter(t *testing.T, name, scope string, max int) string {
	t.Helper()
	n, _ := json.Marshal(name)
	sc, _ := json.Marshal(scope)
	doc := `{"schemaVersion": 1, "init": "IDLE",
  "states": [{"id": "IDLE"}, {"id": "DONE", "terminal": true}],
  "transitions": [{"from": "IDLE", "event": "go", "to": "DONE", "updates": [{"variable": ` + string(n) + `, "op": "inc"}]}],
  "variables": [{"name": ` + string(n) + `, "kind": "integer", "init": 0}, {"name": ` + string(sc) + `, "kind": "integer", "init": 0}],
  "invariants": [{"id": "bounded", "description": "bounded", "kind": "var-in-range", "variable": ` + string(n) + `, "max": ` + strconv.Itoa(max) + `,
    "when": {"variable": ` + string(sc) + `, "op": ">=", "value": 0}}]}`
	return writeTemp(t, "named.json", doc)
}

// Variable names that are the frame index, constants, literals, keywords,
// or not identifiers at all keep their meaning in the queries --bound
// builds (and prove's confirmation of a counterexample): a violation in
// one step is found, and an invariant that holds holds.
func TestBMCBoundVariableNamesKeepTheirMeaning(t *testing.T) {
	names := []string{"cycle", "pi", "E", "tau", "réessai", "true", "and", "x.y", "9x", "a b", "var", "active", "at", `q"uote\`, "where"}
	for i, name := range names {
		scope := names[(i+1)%len(names)]
		doc, code := bmcJSON(t, namedCounter(t, name, scope, 0), "--bound", "3")
		c := doc["checks"].([]any)[0].(map[string]any)
		if code != 1 || field(c, "result", "outcome") != "property_violated" || field(c, "replay", "ok") != true {
			t.Errorf("%q <= 0: exit %d, outcome %v, replay %v; want a replayed counterexample, exit 1", name, code, field(c, "result", "outcome"), field(c, "replay", "ok"))
		}
		doc, code = bmcJSON(t, namedCounter(t, name, scope, 1), "--bound", "3")
		c = doc["checks"].([]any)[0].(map[string]any)
		if code != 0 || field(c, "result", "outcome") != "property_satisfied" {
			t.Errorf("%q <= 1: exit %d, outcome %v; want property_satisfied, exit 0", name, code, field(c, "result", "outcome"))
		}
		if _, stderr, code := runCLI(t, "prove", namedCounter(t, name, scope, 0)); code != 1 {
			t.Errorf("prove %q <= 0: exit %d, want 1 (stderr %q)", name, code, stderr)
		}
		if _, stderr, code := runCLI(t, "prove", namedCounter(t, name, scope, 1)); code != 0 {
			t.Errorf("prove %q <= 1: exit %d, want 0 (stderr %q)", name, code, stderr)
		}
	}
}

// A counterexample marks the frame that violates the property (frame 0
// here, however long the trace), and the replay says it confirms the
// trace, not the verdict.
func TestBMCCounterexampleMarksTheViolatingFrame(t *testing.T) {
	model := namedCounter(t, "x", "y", -1)
	doc, code := bmcJSON(t, model, "--bound", "4")
	c := doc["checks"].([]any)[0].(map[string]any)
	if code != 1 || field(c, "witness", "property_frame") != float64(0) || field(c, "replay", "confirms") != "trace" {
		t.Errorf("exit %d, property_frame %v, replay.confirms %v; want 1, 0, trace", code, field(c, "witness", "property_frame"), field(c, "replay", "confirms"))
	}
	doc, _ = bmcJSON(t, model, "--check", `check reach <= 3: active("DONE");`)
	if got := field(doc, "witness", "property_frame"); got != float64(1) {
		t.Errorf("reach DONE: property_frame %v, want 1", got)
	}
	out, _, _ := runCLI(t, "bmc", model, "--bound", "4")
	for _, want := range []string{"the property is violated at frame 0):", "  0      IDLE   0  0   <- the property is violated\n", "confirms the trace, not the verdict"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// bmc refuses a bound over --max-bound (default 10000), for queries and
// --bound alike; and its --timeout-ms covers the encoding, so a large
// bound with a small budget ends in timeout instead of unrolling on.
func TestBMCBoundLimits(t *testing.T) {
	for _, args := range [][]string{
		{"bmc", "../../examples/retry.json", "--bound", "10001"},
		{"bmc", "../../examples/retry.json", "--check", `check reach <= 10001: active("DONE");`},
		{"bmc", "../../examples/retry.json", "--bound", "30", "--max-bound", "20"},
	} {
		if _, stderr, code := runCLI(t, args...); code != 2 || !strings.Contains(stderr, "max-bound") {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming --max-bound", args, code, stderr)
		}
	}
	// 50 ms run out while encoding the 5,000 steps, or, on a loaded
	// machine, already while loading: a timeout report either way.
	doc, code := bmcJSON(t, "../../examples/order.json", "--check", `check reach <= 5000: active("DONE") && retry == 99;`, "--timeout-ms", "50")
	diags, _ := field(doc, "result", "diagnostics").([]any)
	if code != 3 || field(doc, "result", "outcome") != "timeout" || len(diags) == 0 ||
		(diags[0] != "timeout:deadline_exhausted_while_encoding" && diags[0] != "timeout:deadline_exhausted_while_loading") {
		t.Errorf("exit %d, outcome %v, diagnostics %v; want 3, timeout while encoding (or loading)", code, field(doc, "result", "outcome"), diags)
	}
}

// A report whose main check timed out (or ran out of budget before it)
// leaves every feasibility stage unchecked, with a null status, as the
// reference prescribes; the schema must accept it (issue 29.6).
//
// The budget counts from the start, so 50 ms may run out while loading
// (a loaded machine) or while encoding or solving: each is a timeout
// report. 1 ms on a 20,000-state model runs out while loading, every
// time: before issue 38 that printed only a message on stderr.
func TestBMCTimeoutReportSatisfiesSchema(t *testing.T) {
	ring := ringJSON(t, 20000)
	for _, c := range []struct {
		model, ms string
		loading   bool // the budget surely runs out while loading
	}{
		{"../../examples/order.json", "50", false},
		{ring, "1", true},
	} {
		doc, code := bmcJSON(t, c.model, "--check", `check reach <= 5000: active("DONE") && retry == 99;`, "--timeout-ms", c.ms)
		if code != 3 || field(doc, "result", "outcome") != "timeout" {
			t.Fatalf("%s: exit %d, outcome %v; want 3, timeout", c.ms, code, field(doc, "result", "outcome"))
		}
		for _, stage := range []string{"kernel", "initialization", "assumptions"} {
			if st := field(doc, "result", "feasibility", stage); field(doc, "result", "feasibility", stage, "status") != nil || field(doc, "result", "feasibility", stage, "origin") != "not_checked" {
				t.Errorf("%s: feasibility.%s = %v, want status null and origin not_checked", c.ms, stage, st)
			}
		}
		diags, _ := field(doc, "result", "diagnostics").([]any)
		reason, _ := field(doc, "result", "reason").(string)
		if c.loading && (len(diags) != 1 || diags[0] != "timeout:deadline_exhausted_while_loading" || !strings.Contains(reason, "timeout while loading "+ring)) {
			t.Errorf("1 ms: diagnostics %v, reason %q; want the loading phase", diags, reason)
		}
	}
}

// A budget that runs out while loading is the undecided report in every
// output, never a message alone (issue 38): --bound (whose invariants are
// not known yet, so none was checked), SARIF (a warning, not an empty
// log that reads as a pass), and prove's JSON and SARIF.
func TestLoadingTimeoutIsAReport(t *testing.T) {
	ring := ringJSON(t, 20000)
	const want = "timeout while loading "
	doc, code := bmcJSON(t, ring, "--bound", "3", "--timeout-ms", "1")
	skipped, _ := doc["skipped"].([]any)
	if checks, _ := doc["checks"].([]any); code != 3 || len(checks) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].(string), want) {
		t.Errorf("--bound: exit %d, checks %v, skipped %v; want 3, none, the loading phase", code, doc["checks"], skipped)
	}
	for _, args := range [][]string{
		{"bmc", ring, "--check", `check reach <= 3: active("S5");`},
		{"bmc", ring, "--bound", "3"},
		{"prove", ring, "--infer"},
	} {
		out, _, code := runCLI(t, append(args, "--timeout-ms", "1", "--format", "sarif")...)
		res := readSARIF(t, args[0], out).Runs[0].Results
		if code != 3 || len(res) != 1 || !strings.Contains(out, want) {
			t.Errorf("%v --format sarif: exit %d, %d results; want 3 and one naming the loading phase\n%s", args, code, len(res), out)
		}
	}
	out, _, code := runCLI(t, "prove", ring, "--infer", "--timeout-ms", "1", "--json")
	schematest.Report(t, "prove --json", []byte(out))
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 3 || rep["verdict"] != "unknown" || !strings.Contains(fmt.Sprint(rep["layers"], rep["inferred_reason"]), want) {
		t.Errorf("prove --json: exit %d, err %v, verdict %v, layers %v; want 3, unknown, the loading phase", code, err, rep["verdict"], rep["layers"])
	}
}
