package main

import (
	"strings"
	"testing"
)

// Seed 002's ledger through the CLI on FCSTM models (docs/queries.md,
// worked examples).

// `state Root;` with a response whose window outlives the bound: main
// unsat, tail sat, outcome incomplete, exit 3; the tail model is replayed
// as an incomplete_suffix.
func TestFCSTMSeedResponseIncomplete(t *testing.T) {
	doc, code := bmcJSON(t, "testdata/fcstm/root.fcstm", "--check", "check response <= 1: trigger true -> within 2 false;")
	if code != 3 || field(doc, "result", "outcome") != "incomplete" || field(doc, "result", "status") != "unsat" ||
		field(doc, "result", "incomplete_status") != "sat" || field(doc, "result", "property_satisfied") != nil {
		t.Fatalf("exit %d, result %v", code, doc["result"])
	}
	if field(doc, "replay", "model_role") != "incomplete_suffix" || field(doc, "replay", "ok") != true {
		t.Errorf("replay %v", doc["replay"])
	}
}

// `check reach <= 1: active("Root");`: witness_found, two frames, one
// initial step, replayed, six trace symbols.
func TestFCSTMSeedReachSixSymbols(t *testing.T) {
	doc, code := bmcJSON(t, "testdata/fcstm/root.fcstm", "--check", `check reach <= 1: active("Root");`)
	if code != 0 || field(doc, "result", "outcome") != "witness_found" {
		t.Fatalf("exit %d, result %v", code, doc["result"])
	}
	frames, _ := field(doc, "witness", "frames").([]any)
	steps, _ := field(doc, "witness", "steps").([]any)
	if len(frames) != 2 || len(steps) != 1 {
		t.Fatalf("%d frames, %d steps", len(frames), len(steps))
	}
	if st := steps[0].(map[string]any); st["case_kind"] != "initial" || st["target_state"] != "Root" {
		t.Errorf("step %v", st)
	}
	if field(doc, "replay", "ok") != true || field(doc, "result", "symbol_count") != float64(6) {
		t.Errorf("replay ok %v, %v symbols", field(doc, "replay", "ok"), field(doc, "result", "symbol_count"))
	}
	if sites, _ := field(doc, "result", "invisible_error_sites").([]any); len(sites) != 0 {
		t.Errorf("error sites %v in a model without any", sites)
	}
}

// Two assumptions at frame 1 (x == 1 and x == 2) with --explain proof:
// scenario_infeasible at the assumptions stage, a subset-minimal core of
// both, each input bound by core_binding, the proof complete.
func TestFCSTMSeedTwoAssumptionsProof(t *testing.T) {
	doc, code := bmcJSON(t, "testdata/fcstm/x.fcstm", "-q", "testdata/fcstm/two-values.fbmcq", "--explain", "proof")
	if code != 3 || field(doc, "result", "outcome") != "scenario_infeasible" || field(doc, "result", "feasibility", "infeasible_stage") != "assumptions" {
		t.Fatalf("exit %d, result %v", code, doc["result"])
	}
	ex, _ := field(doc, "result", "feasibility", "explanation").(map[string]any)
	core, _ := ex["core"].(map[string]any)
	if items, _ := core["items"].([]any); len(items) != 2 || core["reduction"] != "subset_minimal" {
		t.Errorf("core %v", core)
	}
	nodes, _ := field(ex, "proof", "nodes").([]any)
	inputs := 0
	for _, n := range nodes {
		if n.(map[string]any)["verification_method"] == "core_binding" {
			inputs++
		}
	}
	if inputs != 2 || len(nodes) != 3 || ex["achieved_mode"] != "proof" || ex["status"] != "complete" {
		t.Errorf("proof nodes %v, achieved %v, status %v", nodes, ex["achieved_mode"], ex["status"])
	}
	if field(doc, "result", "feasibility", "refinement_status") != "complete" {
		t.Errorf("refinement_status %v", field(doc, "result", "feasibility", "refinement_status"))
	}
}

// A model that can raise says so: the error steps are invisible to the
// query (a field in JSON, a note in text).
func TestFCSTMInvisibleErrorSites(t *testing.T) {
	src := writeTemp(t, "div.fcstm", "def int x = 6;\ndef int d = 2;\nstate R {\n    state A {\n        during { x = x / d; d = d - 1; }\n    }\n    [*] -> A;\n}\n")
	doc, _ := bmcJSON(t, src, "--check", "check reach <= 1: true;")
	sites, _ := field(doc, "result", "invisible_error_sites").([]any)
	if len(sites) == 0 || !strings.Contains(sites[0].(string), "div.fcstm:5:") {
		t.Fatalf("error sites %v", sites)
	}
	out, _, _ := runCLI(t, "bmc", src, "--check", "check reach <= 1: true;")
	if !strings.Contains(out, "is excluded from every trace") || !strings.Contains(out, "div.fcstm:5:") {
		t.Errorf("text without the note:\n%s", out)
	}
}

// FCSTM through the CLI: --format-in names the format of another file
// name, load errors are located, unsupported constructs refused, --bound
// refused with the reason, and each exits 2.
func TestFCSTMCLIErrors(t *testing.T) {
	good := writeTemp(t, "root.model", "state Root;\n")
	if doc, code := bmcJSON(t, good, "--format-in", "fcstm", "--check", `check reach <= 1: active("Root");`); code != 0 || field(doc, "replay", "ok") != true {
		t.Errorf("--format-in fcstm: exit %d", code)
	}
	bad := writeTemp(t, "bad.fcstm", "state Root {\n    state A;\n    [*] -> A;\n    A -> Nowhere;\n}\n")
	shift := writeTemp(t, "shift.fcstm", "def int x = 1;\nstate R {\n    state A {\n        during { x = x << 1; }\n    }\n    [*] -> A;\n}\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{good, "--check", "check reach <= 1: true;"}, "cannot tell the model format"},
		{[]string{good, "--format-in", "yaml", "--check", "check reach <= 1: true;"}, "unknown model format"},
		{[]string{bad, "--check", "check reach <= 1: true;"}, "bad.fcstm:4:"},
		{[]string{shift, "--check", "check reach <= 1: true;"}, "shift.fcstm:4:"},
		{[]string{"testdata/fcstm/root.fcstm", "--bound", "3"}, "declares no"},
	} {
		_, stderr, code := runCLI(t, append([]string{"bmc"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("bmc %v: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// The HTML report draws an FCSTM model.
func TestFCSTMBMCHTML(t *testing.T) {
	out, _, code := runCLI(t, "bmc", "../../examples/fcstm/door.fcstm", "--check", `check reach <= 3: active("Door.Open");`, "--format", "html")
	if code != 0 || !strings.Contains(out, "<svg") || !strings.Contains(out, "Opening") {
		t.Fatalf("exit %d, page of %d bytes", code, len(out))
	}
}

// BenchmarkFCSTMQuery is a small FCSTM query from the command line to the
// report, in process: load, lower, parse and bind the query, solve,
// decode, replay on the FCSTM runtime, render. The process start is
// measured from outside (the README's figure is bench/pairtime over the
// binary).
func BenchmarkFCSTMQuery(b *testing.B) {
	args := []string{"bmc", "../../examples/fcstm/door.fcstm", "-q", "../../examples/fcstm/door-opens.fbmcq"}
	for b.Loop() {
		var out, errb strings.Builder
		if code := run(args, &out, &errb); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
}

// A run that raises within the bound makes a property that holds on every
// trace undecided: exit 3, the site in the reason and the headline says
// why (issue 29 item 2).
func TestFCSTMRaisingRunUndecided(t *testing.T) {
	src := writeTemp(t, "raise.fcstm", "def int x = 0;\nstate R {\n    state A;\n    state B { during { x = 1 / x; } }\n    [*] -> A;\n    A -> B :: Go;\n}\n")
	doc, code := bmcJSON(t, src, "--check", "check invariant <= 3: x == 0;")
	if code != 3 || field(doc, "result", "outcome") != "unknown" || field(doc, "result", "property_satisfied") != nil {
		t.Fatalf("exit %d, outcome %v, verdict %v", code, field(doc, "result", "outcome"), field(doc, "result", "property_satisfied"))
	}
	if reason, _ := field(doc, "result", "reason").(string); !strings.Contains(reason, "raise.fcstm:4:") {
		t.Errorf("reason %q", reason)
	}
	out, _, _ := runCLI(t, "bmc", src, "--check", "check invariant <= 3: x == 0;")
	if !strings.Contains(out, "A RUN RAISES A RUNTIME ERROR") {
		t.Errorf("headline:\n%s", out)
	}
}
