package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVerifyFCSTM(t *testing.T) {
	out, _, code := runCLI(t, "verify", "../../examples/fcstm/washing_machine.fcstm")
	if code != 0 || !strings.HasPrefix(out, "PASS  ../../examples/fcstm/washing_machine.fcstm") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	// door counts its openings without bound: the search stops at its cap.
	out, _, code = runCLI(t, "verify", "../../examples/fcstm/door.fcstm", "--max-states", "500")
	if code != 3 || !strings.HasPrefix(out, "NOT DECIDED  ../../examples/fcstm/door.fcstm") || !strings.Contains(out, "FCSTM_SEARCH_UNDECIDED") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	out, _, code = runCLI(t, "verify", "--json", "../../examples/fcstm/washing_machine.fcstm")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if doc["schema"] != "logicprobe/verify/v1" || doc["ok"] != true || doc["hashSpec"] != "fcstm-source-sha256" {
		t.Errorf("json header: %v %v %v", doc["schema"], doc["ok"], doc["hashSpec"])
	}
	if checks := doc["checks"].([]any); len(checks) != 7 || checks[2].(map[string]any)["id"] != "FCSTM-L1" || checks[6].(map[string]any)["id"] != "FCSTM-S1" {
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

// verify searches an FCSTM model: a cycle that raises is an error with
// its path, a leaf the guards rule out is reported, and the exit code
// follows the verdict.
func TestVerifyFCSTMSearch(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	raising := write("raise.fcstm", "def int x = 2;\ndef int y = 0;\nstate R {\n  state A;\n  state B;\n  [*] -> A;\n  A -> A :: Tick effect { x = (x + 1) % 3; };\n  A -> A :: Div effect { y = 10 / x; };\n  A -> B : if [y > 100];\n}\n")
	out, _, code := runCLI(t, "verify", "--json", raising)
	var doc struct {
		Checks []struct {
			ID       string
			Findings []struct {
				Code, Message string
				Path          []map[string]string
				Evidence      map[string]any
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	s1 := doc.Checks[len(doc.Checks)-1]
	if s1.ID != "FCSTM-S1" || len(s1.Findings) != 2 {
		t.Fatalf("search check: %+v", s1)
	}
	raise, unreached := s1.Findings[0], s1.Findings[1]
	if raise.Code != "FCSTM_CYCLE_RAISES" || len(raise.Path) != 3 || raise.Path[2]["event"] != "{R.A.Div}" ||
		!strings.Contains(raise.Message, "division by zero") || raise.Evidence["line"] != float64(8) {
		t.Errorf("raise finding: %+v", raise)
	}
	if unreached.Code != "FCSTM_UNREACHED_STATE" || !strings.Contains(unreached.Message, "R.B") {
		t.Errorf("unreached finding: %+v", unreached)
	}
	_, errOut, code := runCLI(t, "verify", raising, "--max-states", "0")
	if code != 2 || !strings.Contains(errOut, "--max-states") {
		t.Errorf("--max-states 0: exit %d, %s", code, errOut)
	}
}
