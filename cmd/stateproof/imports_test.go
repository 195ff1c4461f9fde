package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An import outside the model's directory is refused unless
// --import-root widens the root, for every command that loads FCSTM.
func TestImportRootFlag(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "app")
	if err := os.Mkdir(app, 0o755); err != nil {
		t.Fatal(err)
	}
	host := filepath.Join(app, "host.fcstm")
	writeFile(t, host, "state R {\n    import \"../unit.fcstm\" as P;\n    [*] -> P;\n}\n")
	writeFile(t, filepath.Join(dir, "unit.fcstm"), "state U;")
	for _, args := range [][]string{
		{"verify", host},
		{"simulate", host, "--events", ""},
		{"bmc", host, "--check", `check reach <= 1: active("R.P");`},
	} {
		out, stderr, code := runCLI(t, args...)
		if code == 0 || !strings.Contains(out+stderr, "E_IMPORT_PATH") || !strings.Contains(out+stderr, host+":2:12") {
			t.Errorf("%v: exit %d, want a located E_IMPORT_PATH refusal:\n%s%s", args, code, out, stderr)
		}
		out, stderr, code = runCLI(t, append(args, "--import-root", dir)...)
		if strings.Contains(out+stderr, "E_IMPORT") {
			t.Errorf("%v --import-root %s: exit %d, still refused:\n%s%s", args, dir, code, out, stderr)
		}
	}
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A unit bound onto host variables (def valve_* -> inlet_$1) is one set
// of variables with the host's initial values in every engine.
func TestImportBindsHostVariables(t *testing.T) {
	const dir = "../../internal/fcstm/model/testdata/bind/"
	host := dir + "host_same.fcstm"
	out, stderr, code := runCLI(t, "simulate", host, "--events", ";/Inlet.Open")
	if code != 0 || !strings.Contains(out, "starts at Plant with inlet_pos = 7, inlet_ops = 0\n") ||
		!strings.Contains(out, "changed: inlet_pos 7 → 100, inlet_ops 0 → 1") {
		t.Errorf("simulate: exit %d\n%s%s", code, out, stderr)
	}
	// Were the unit's initial value (0) used, frame 0 would violate this.
	out, stderr, code = runCLI(t, "bmc", host, "--check", "check forbid <= 3: inlet_pos == 0;", "--explain", "proof")
	if code != 0 || !strings.Contains(out, "PROPERTY GUARANTEED WITHIN BOUND") {
		t.Errorf("bmc forbid: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = runCLI(t, "bmc", host, "--check", "check reach <= 3: inlet_ops == 1 && inlet_pos == 100;", "--json")
	if code != 0 || !strings.Contains(out, `"ok": true`) {
		t.Errorf("bmc reach: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = runCLI(t, "prove", host, "--rsc", dir+"host_same.rsc")
	if code != 0 || !strings.Contains(out, "PROVED") {
		t.Errorf("prove: exit %d\n%s%s", code, out, stderr)
	}
	for _, bad := range []string{"host_type.fcstm", "two_type.fcstm", "two_init.fcstm"} {
		out, stderr, code = runCLI(t, "verify", dir+bad)
		if code != 2 || !strings.Contains(out+stderr, "E_IMPORT_CONFLICT") {
			t.Errorf("verify %s: exit %d, want 2 with E_IMPORT_CONFLICT\n%s%s", bad, code, out, stderr)
		}
	}
}

// Two instances of one unit imported without a def mapping each have
// their own counter (A_p, B_p) in every engine: simulate counts them
// apart, bmc finds them apart and proves B's still while A counts, and
// prove agrees.
func TestImportInstancesIndependent(t *testing.T) {
	const dir = "../../internal/fcstm/model/testdata/instances/"
	model := dir + "two.fcstm"
	out, stderr, code := runCLI(t, "simulate", model, "--events", ";/A.Bump;/A.Bump;/A.Stop;/B.Bump")
	if code != 0 || !strings.Contains(out, "starts at Plant with A_p = 0, B_p = 0\n") ||
		!strings.Contains(out, "changed: A_p 1 → 2") || !strings.Contains(out, "changed: B_p 0 → 1") {
		t.Errorf("simulate: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = runCLI(t, "bmc", model, "--check", "check reach <= 5: A_p == 2 && B_p == 1;", "--json")
	if code != 0 || !strings.Contains(out, `"ok": true`) {
		t.Errorf("bmc reach: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = runCLI(t, "bmc", model, "--check", `check forbid <= 6: active("Plant.A") && B_p != 0;`, "--explain", "proof")
	if code != 0 || !strings.Contains(out, "PROPERTY GUARANTEED WITHIN BOUND") {
		t.Errorf("bmc forbid: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = runCLI(t, "prove", model, "--rsc", dir+"two.rsc")
	if code != 0 || !strings.Contains(out, "PROVED") {
		t.Errorf("prove: exit %d\n%s%s", code, out, stderr)
	}
}
