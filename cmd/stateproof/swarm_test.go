package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSwarmAndMergeCommands: members of a swarm write JSON reports, merge
// combines them (exit 1 with the shortest path), a merge of clean reports
// is undecided (exit 3), and a forged report is refused (exit 2).
func TestSwarmAndMergeCommands(t *testing.T) {
	dir := t.TempDir()
	runOK := func(want int, args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, out.String(), errb.String())
		}
		return out.String() + errb.String()
	}
	broken := "../../examples/broken/s7-peterson-no-flag.json"
	var reports []string
	for i, share := range []string{"0/3", "1/3", "2/3"} {
		p := filepath.Join(dir, "b"+string(rune('0'+i))+".json")
		reports = append(reports, p)
		var out, errb bytes.Buffer
		if code := run([]string{"verify", broken, "--swarm", share, "--json", "-o", p}, &out, &errb); code != 1 && code != 3 {
			t.Fatalf("member %s: exit %d %s", share, code, errb.String())
		}
	}
	text := runOK(1, append([]string{"merge", "--model", broken}, reports...)...)
	if !strings.Contains(text, "FAIL") || !strings.Contains(text, "(6 steps)") {
		t.Errorf("merge output:\n%s", text)
	}
	clean := filepath.Join(dir, "clean.json")
	runOK(3, "verify", "../../examples/order.json", "--swarm", "1/2", "--json", "-o", clean)
	if text := runOK(3, "merge", clean, "--json", "--model", "../../examples/order.json"); !strings.Contains(text, `"verdict": "undecided"`) || !strings.Contains(text, `"exit_code": 3`) {
		t.Errorf("clean merge:\n%s", text)
	}
	data, err := os.ReadFile(reports[0])
	if err != nil {
		t.Fatal(err)
	}
	forged := filepath.Join(dir, "forged.json")
	// member 0 runs in model order: its first step is transition 0; claim 3,
	// whose guard never holds.
	bad := strings.Replace(string(data), `"transition": 0`, `"transition": 3`, 1)
	if bad == string(data) {
		t.Fatal("could not forge the report")
	}
	if err := os.WriteFile(forged, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if text := runOK(2, "merge", "--model", broken, reports[1], forged); !strings.Contains(text, "does not replay") {
		t.Errorf("forged merge said:\n%s", text)
	}
	runOK(2, "verify", broken, "--swarm", "3/3")
	runOK(2, "verify", broken, "--swarm", "0/2", "--local-partitions", "2")
}
