package mcpserver

import (
	"strings"
	"testing"
)

func TestVerifyFCSTM(t *testing.T) {
	cs := connect(t)
	out, _ := call(t, cs, "verify", map[string]any{"path": "examples/fcstm/door.fcstm"})
	if out["schema"] != "logicprobe/verify/v1" || out["verdict"] != "pass" || out["hashSpec"] != "fcstm-source-sha256" {
		t.Errorf("door.fcstm = %v %v %v", out["verdict"], out["verdictReason"], out["hashSpec"])
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
