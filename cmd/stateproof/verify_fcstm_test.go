package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVerifyFCSTM(t *testing.T) {
	out, _, code := runCLI(t, "verify", "../../examples/fcstm/door.fcstm")
	if code != 0 || !strings.HasPrefix(out, "PASS  ../../examples/fcstm/door.fcstm") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	out, _, code = runCLI(t, "verify", "--json", "../../examples/fcstm/door.fcstm")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if doc["schema"] != "logicprobe/verify/v1" || doc["ok"] != true || doc["hashSpec"] != "fcstm-source-sha256" {
		t.Errorf("json header: %v %v %v", doc["schema"], doc["ok"], doc["hashSpec"])
	}
	if checks := doc["checks"].([]any); len(checks) != 6 || checks[2].(map[string]any)["id"] != "FCSTM-L1" {
		t.Errorf("checks: %v", checks)
	}
}

func TestVerifyFCSTMBroken(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.fcstm")
	if err := os.WriteFile(bad, []byte("state R {\n  state A;\n  [*] -> A;\n  A -> B;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "verify", bad)
	if code != 2 || !strings.Contains(out, "E_UNKNOWN_STATE: "+bad+":4:8:") || !strings.Contains(out, "      A -> B;\n             ^") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	out, _, code = runCLI(t, "verify", "--format", "sarif", bad)
	if code != 2 || !strings.Contains(out, `"startLine": 4`) || !strings.Contains(out, `"startColumn": 8`) {
		t.Errorf("sarif exit %d:\n%s", code, out)
	}
	_, errOut, code := runCLI(t, "verify", filepath.Join(dir, "missing.fcstm"))
	if code != 2 || !strings.Contains(errOut, "INPUT_UNREADABLE") {
		t.Errorf("missing file: exit %d, %s", code, errOut)
	}
	_, errOut, code = runCLI(t, "verify", "--baseline", "x.json", bad)
	if code != 2 || !strings.Contains(errOut, "--baseline applies to JSON models only") {
		t.Errorf("json-only flag: exit %d, %s", code, errOut)
	}
}
