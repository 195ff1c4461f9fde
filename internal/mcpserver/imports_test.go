//go:build unix

package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FCSTM imports of models given inline or by path never read outside the
// server's root, never block on a FIFO, and never quote what they refused.
func TestImportsStayUnderTheRoot(t *testing.T) {
	served, outside := t.TempDir(), t.TempDir()
	const secret = "TOPSECRETVALUE=hunter2"
	mustWrite(t, filepath.Join(outside, "secret.txt"), secret)
	mustWrite(t, filepath.Join(served, "lib", "unit.fcstm"), "state U;")
	mustWrite(t, filepath.Join(served, "app", "keep.txt"), "")
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(served, "link.fcstm"))
	if err := syscall.Mkfifo(filepath.Join(served, "fifo.fcstm"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connectServing(t, served)
	escape, _ := filepath.Rel(served, filepath.Join(outside, "secret.txt"))
	host := func(imp string) string { return "state R { import \"" + imp + "\" as P; [*] -> P; }" }
	for _, imp := range []string{escape, "/proc/self/environ", filepath.Join(outside, "secret.txt"), "link.fcstm", "fifo.fcstm", "lib"} {
		for _, tc := range []struct {
			tool string
			args map[string]any
		}{
			{"verify", map[string]any{"model": host(imp)}},
			{"simulate", map[string]any{"source": host(imp), "cycles": []any{}}},
			{"bmc", map[string]any{"model": host(imp), "format": "fcstm", "query": "check reach <= 1: active(\"R.P\");"}},
		} {
			done := make(chan string, 1)
			go func() {
				_, res := call(t, cs, tc.tool, tc.args)
				data, _ := json.Marshal(res)
				done <- string(data)
			}()
			select {
			case text := <-done:
				if !strings.Contains(text, "E_IMPORT") || strings.Contains(text, "hunter2") || strings.Contains(text, "TOPSECRET") {
					t.Errorf("%s importing %q: want an E_IMPORT refusal quoting nothing of the target, got %s", tc.tool, imp, text)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s importing %q did not answer within 10 s", tc.tool, imp)
			}
		}
	}
	// A model by path imports relative to its own directory, inside the root.
	mustWrite(t, filepath.Join(served, "app", "up.fcstm"), host("../lib/unit.fcstm"))
	if _, res := call(t, cs, "simulate", map[string]any{"path": "app/up.fcstm", "cycles": []any{[]any{}}}); res.IsError {
		t.Errorf("a model by path importing inside the root: %v", res.Content)
	}
	// An inline model imports relative to the root.
	out, res := call(t, cs, "simulate", map[string]any{"source": host("lib/unit.fcstm"), "cycles": []any{[]any{}}})
	if data, _ := json.Marshal(out); res.IsError || strings.Contains(string(data), `"error"`) {
		t.Errorf("an inline model importing inside the root: %s", data)
	}
}

func mustWrite(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
