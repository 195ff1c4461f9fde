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
		{"bmc", host, "--query", `check reach <= 1: active("R.P");`},
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
