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
