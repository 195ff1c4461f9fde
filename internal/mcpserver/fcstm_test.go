package mcpserver

import (
	"strings"
	"testing"
)

func TestVerifyFCSTM(t *testing.T) {
	cs := connect(t)
	// The model is searched as by the CLI: washing_machine's space is
	// finite, door counts without bound and is undecided at the cap.
	out, _ := call(t, cs, "verify", map[string]any{"path": "examples/fcstm/washing_machine.fcstm"})
	if out["schema"] != "logicprobe/verify/v1" || out["verdict"] != "pass" || out["hashSpec"] != "fcstm-source-sha256" || !hasCheck(out, "FCSTM-S1") {
		t.Errorf("washing_machine.fcstm = %v %v %v", out["verdict"], out["verdictReason"], out["hashSpec"])
	}
	out, _ = call(t, cs, "verify", map[string]any{"path": "examples/fcstm/door.fcstm", "maxStates": 50})
	if out["verdict"] != "not_decided" || !hasCheck(out, "FCSTM-S1") {
		t.Errorf("door.fcstm at a cap of 50 = %v %v", out["verdict"], out["verdictReason"])
	}
	out, _ = call(t, cs, "verify", map[string]any{"model": "state R {\n  state A;\n  A -> A;\n}"})
	checks, _ := out["checks"].([]any)
	if out["verdict"] != "fail" || out["ok"] != false || len(checks) != 1 {
		t.Fatalf("inline broken model = %v", out)
	}
	f := checks[0].(map[string]any)["findings"].([]any)[0].(map[string]any)
	ev := f["evidence"].(map[string]any)
	if f["code"] != "E_NO_INITIAL" || ev["line"] != 1.0 || ev["col"] != 7.0 || !strings.Contains(f["message"].(string), "<inline model>:1:7") {
		t.Errorf("finding = %v", f)
	}
	_, res := call(t, cs, "verify", map[string]any{"path": "examples/fcstm/door.fcstm", "beforeModel": map[string]any{"path": "x.json"}})
	if !res.IsError {
		t.Error("beforeModel with an FCSTM model must be a tool error")
	}
}

// hasCheck reports whether a verify report ran the check with this id.
func hasCheck(rep map[string]any, id string) bool {
	checks, _ := rep["checks"].([]any)
	for _, c := range checks {
		if m, ok := c.(map[string]any); ok && m["id"] == id {
			return true
		}
	}
	return false
}

// The verify tool decides an FBMCQ query on an FCSTM model by explicit
// search, as verify -q/--check does (issue 39): the typed report has the
// queries section and the FCSTM-Q1 check instead of the whole-space search.
func TestVerifyFCSTMQuery(t *testing.T) {
	cs := connect(t)
	answer := func(out map[string]any) map[string]any {
		t.Helper()
		qs, _ := out["queries"].([]any)
		if len(qs) != 1 || !hasCheck(out, "FCSTM-Q1") || hasCheck(out, "FCSTM-S1") {
			t.Fatalf("queries %v, checks %v", out["queries"], out["checks"])
		}
		return qs[0].(map[string]any)
	}
	out, _ := call(t, cs, "verify", map[string]any{"path": "examples/fcstm/door.fcstm", "query": `check reach <= 4: active("Door.Open");`})
	a := answer(out)
	if a["outcome"] != "witness_found" || a["engine"] != "explicit" || a["kind"] != "reach" || a["bound"] != 4.0 || out["verdict"] != "pass" {
		t.Errorf("door reach: %v, verdict %v", a, out["verdict"])
	}
	if path, _ := a["path"].([]any); len(path) == 0 || a["frame"] != float64(len(path)) {
		t.Errorf("witness path %v at frame %v", a["path"], a["frame"])
	}
	// motor is -1, 0 or 1 at every depth, but open_count grows without
	// end: undecided at the cap, never a pass.
	out, _ = call(t, cs, "verify", map[string]any{"path": "examples/fcstm/door.fcstm", "query": "check invariant <= 3: motor <= 1;", "allDepths": true, "maxStates": 200})
	if a := answer(out); a["outcome"] != "unknown" || a["allDepths"] != true || out["verdict"] != "not_decided" {
		t.Errorf("door every depth: %v, verdict %v", a, out["verdict"])
	}
	src := "def int n = 0;\nstate R {\n    state A;\n    state B { enter { n = 1; } }\n    [*] -> A;\n    A -> B :: Go;\n    B -> A :: Back;\n}\n"
	out, _ = call(t, cs, "verify", map[string]any{"model": src, "query": "check invariant <= 1: n <= 1;", "allDepths": true})
	if a := answer(out); a["outcome"] != "property_satisfied" || out["verdict"] != "pass" {
		t.Errorf("inline every depth: %v, verdict %v", a, out["verdict"])
	}
	// ltl checks reach the MCP tool as they reach verify --check: the
	// machine under weak fairness of every event cannot stay in B, where
	// Back is always enabled, and without fairness it may stay in A.
	out, _ = call(t, cs, "verify", map[string]any{"model": src, "query": `check ltl fair *: G F active("R.A");`})
	if a := answer(out); a["outcome"] != "property_satisfied" || a["kind"] != "ltl" || out["verdict"] != "pass" {
		t.Errorf("ltl holds: %v, verdict %v", a, out["verdict"])
	}
	out, _ = call(t, cs, "verify", map[string]any{"model": src, "query": `check ltl: F G active("R.B");`})
	if a := answer(out); a["outcome"] != "property_violated" || a["loopStart"] == nil || out["verdict"] != "fail" {
		t.Errorf("ltl violated: %v, verdict %v", a, out["verdict"])
	}
	out, _ = call(t, cs, "verify", map[string]any{"path": "cmd/stateproof/testdata/fcstm/x.fcstm", "queryPath": "cmd/stateproof/testdata/fcstm/two-values.fbmcq"})
	if a := answer(out); a["outcome"] != "scenario_infeasible" || out["verdict"] != "not_decided" {
		t.Errorf("queryPath: %v, verdict %v", a, out["verdict"])
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "examples/order.json", "query": `check reach <= 2: active("PAID");`}, "use the bmc tool"},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "query": "check reach <= 1: true;", "queryPath": "x.fbmcq"}, "not both"},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "allDepths": true}, "allDepths has no effect"},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "query": `check reach <= 2: active("Door.Nope");`}, "<query>:1:"},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "query": "init state(\"Door.Open\");\ncheck reach <= 2: true;"}, "use stateproof bmc"},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "queryPath": "examples/fcstm/door-opens.fbmcq"}, "door-opens.fbmcq:"},
		{map[string]any{"path": "examples/fcstm/door.fcstm", "queryPath": "nope.fbmcq"}, "cannot read nope.fbmcq"},
	} {
		_, res := call(t, cs, "verify", c.args)
		if !res.IsError || !strings.Contains(toolText(res), c.want) {
			t.Errorf("%v: error %v %q, want one with %q", c.args, res.IsError, toolText(res), c.want)
		}
	}
}
