package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mergeRun runs stateproof with args and returns its exit code and what
// it wrote.
func mergeRun(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String() + errb.String()
}

// swarmReport writes a member report of the broken Peterson model to dir
// with its model field set to model.
func swarmReport(t *testing.T, dir, name, model string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if code, text := mergeRun("verify", "../../examples/broken/s7-peterson-no-flag.json", "--swarm", "0/1", "--json", "-o", p); code != 1 {
		t.Fatalf("swarm member: exit %d\n%s", code, text)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"model": "../../examples/broken/s7-peterson-no-flag.json"`), []byte(`"model": "`+model+`"`), 1)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMergeModelConfined: without --model, merge reads the model a report
// names only inside the report's folder, wherever merge runs from; an
// absolute path, a ".." or a symbolic link out is refused without reading
// it, and no refusal quotes a byte of the file; --model reads any file.
func TestMergeModelConfined(t *testing.T) {
	dir := t.TempDir()
	model, err := os.ReadFile("../../examples/broken/s7-peterson-no-flag.json")
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "reports")
	if err := os.MkdirAll(filepath.Join(sub, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "x"), filepath.Join(sub, "models", "p.json")} {
		if err := os.WriteFile(p, model, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("root:x:0:0"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(sub, "link.json")); err != nil {
		t.Fatal(err)
	}
	for _, named := range []string{"/etc/passwd", secret, "../x", "models/../../x", "link.json", ""} {
		code, text := mergeRun("merge", swarmReport(t, sub, "r.json", named))
		if code != 2 || !strings.Contains(text, "--model") || strings.Contains(text, "root") || strings.Contains(text, "unexpected") {
			t.Errorf("report naming %q: exit %d\n%s", named, code, text)
		}
	}
	inside := swarmReport(t, sub, "in.json", "models/p.json")
	if code, text := mergeRun("merge", inside); code != 1 || !strings.Contains(text, "(6 steps)") {
		t.Errorf("a model inside the report's folder: exit %d\n%s", code, text)
	}
	outside := swarmReport(t, sub, "out.json", "../x")
	if code, text := mergeRun("merge", outside, "--model", filepath.Join(dir, "x")); code != 1 {
		t.Errorf("--model outside the report's folder: exit %d\n%s", code, text)
	}
}

// TestMergeTimeout: --timeout-ms 0 keeps each path as found and says so;
// a negative budget is a usage error.
func TestMergeTimeout(t *testing.T) {
	dir := t.TempDir()
	r := swarmReport(t, dir, "r.json", "p.json")
	model := "../../examples/broken/s7-peterson-no-flag.json"
	code, text := mergeRun("merge", r, "--model", model, "--timeout-ms", "0", "--json")
	if code != 1 || !strings.Contains(text, `"shortenStopped": "the time budget ran out at step 0`) || !strings.Contains(text, `"provedShortest": false`) {
		t.Errorf("--timeout-ms 0: exit %d\n%s", code, text)
	}
	if code, text := mergeRun("merge", r, "--model", model, "--timeout-ms", "0"); code != 1 || !strings.Contains(text, "not fully shortened: the time budget ran out") {
		t.Errorf("--timeout-ms 0, text: exit %d\n%s", code, text)
	}
	if code, text := mergeRun("merge", r, "--model", model, "--timeout-ms", "-1"); code != 2 || !strings.Contains(text, "--timeout-ms must be an integer >= 0") {
		t.Errorf("--timeout-ms -1: exit %d\n%s", code, text)
	}
}
