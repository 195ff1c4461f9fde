package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every file a command reads goes through the --max-input-bytes limit.
func TestMaxInputBytesEveryFile(t *testing.T) {
	model := "../../examples/retry.json"
	big := writeTemp(t, "big.txt", strings.Repeat(" ", 4096))
	bigSMT := writeTemp(t, "big.smt2", strings.Repeat(" ", 4096))
	bigFCSTM := writeTemp(t, "big.fcstm", strings.Repeat(" ", 4096))
	for _, args := range [][]string{
		{"verify", big},
		{"verify", bigFCSTM},
		{"verify", model, "--before-model", big},
		{"verify", model, "--before-model", model, "--state-mapping", big},
		{"verify", model, "--baseline", big},
		{"compose", model, big},
		{"bmc", big, "--format-in", "json", "--bound", "2"},
		{"bmc", bigFCSTM, "--check", "check reach <= 1: true;"},
		{"bmc", model, "-q", big},
		{"prove", model, "--rsc", big},
		{"prove", bigSMT},
	} {
		args = append(args, "--max-input-bytes", "2048")
		_, stderr, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, "larger than the input limit of 2048 bytes") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestMaxInputBytesEndlessDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, stderr, code := runCLI(t, "verify", "/dev/zero", "--max-input-bytes", "65536")
	if code != 2 || !strings.Contains(stderr, "/dev/zero is a device") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestMaxInputBytesValidated(t *testing.T) {
	for _, v := range []string{"0", "-1", "x"} {
		if _, _, code := runCLI(t, "verify", "../../examples/retry.json", "--max-input-bytes", v); code != 2 {
			t.Errorf("--max-input-bytes %s: exit %d", v, code)
		}
	}
}

// manyEvents is a ring of n states, each with its own event: every state
// ignores n-1 events, so S5 and A1 each have n*(n-1) findings.
func manyEvents(n int) string {
	var states, trans []string
	for i := range n {
		states = append(states, fmt.Sprintf(`{"id":"s%d"}`, i))
		trans = append(trans, fmt.Sprintf(`{"from":"s%d","event":"e%d","to":"s%d"}`, i, i, (i+1)%n))
	}
	return fmt.Sprintf(`{"schemaVersion":1,"init":"s0","states":[%s],"transitions":[%s]}`, strings.Join(states, ","), strings.Join(trans, ","))
}

func TestMaxFindings(t *testing.T) {
	p := writeTemp(t, "many.json", manyEvents(30))
	type check struct {
		ID       string
		Detail   string
		Findings []json.RawMessage
		Unlisted int
	}
	var rep struct {
		Summary struct {
			Warnings, MaxFindings, UnlistedFindings int
		}
		Checks []check
	}
	decode := func(args ...string) {
		out, stderr, _ := runCLI(t, append([]string{"verify", p, "--json"}, args...)...)
		rep.Checks = nil
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v: %v (%s)", args, err, stderr)
		}
	}
	find := func(id string) check {
		for _, c := range rep.Checks {
			if c.ID == id {
				return c
			}
		}
		t.Fatalf("no check %s", id)
		return check{}
	}
	decode("--max-findings", "7")
	for _, id := range []string{"S5", "A1"} {
		c := find(id)
		if len(c.Findings) != 7 || c.Unlisted != 870-7 || !strings.Contains(c.Detail, "870 warnings; 7 of 870 findings listed") {
			t.Errorf("%s: %d listed, %d unlisted, detail %q", id, len(c.Findings), c.Unlisted, c.Detail)
		}
	}
	if rep.Summary.Warnings < 2*870 || rep.Summary.MaxFindings != 7 || rep.Summary.UnlistedFindings != 2*(870-7) {
		t.Errorf("summary = %+v", rep.Summary)
	}
	decode("--max-findings", "0")
	if c := find("S5"); len(c.Findings) != 870 || c.Unlisted != 0 {
		t.Errorf("--max-findings 0: %d listed, %d unlisted", len(c.Findings), c.Unlisted)
	}
	out, _, _ := runCLI(t, "verify", p, "--max-findings", "3")
	if !strings.Contains(out, "and 867 more findings not listed") {
		t.Errorf("text report does not say how many are not listed:\n%s", out)
	}
	if _, _, code := runCLI(t, "verify", p, "--max-findings", "-1"); code != 2 {
		t.Errorf("--max-findings -1: exit %d", code)
	}
}

// -o creates the report with the permissions any new file gets (the
// umask's), not os.CreateTemp's 0600.
func TestOutputFileMode(t *testing.T) {
	dir := t.TempDir()
	ref, err := os.Create(filepath.Join(dir, "ref"))
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	want, _ := os.Stat(ref.Name())
	out := filepath.Join(dir, "report.json")
	if _, stderr, code := runCLI(t, "verify", "../../examples/retry.json", "--json", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Mode().Perm() != want.Mode().Perm() {
		t.Errorf("report mode %v, a created file gets %v", got.Mode().Perm(), want.Mode().Perm())
	}
}

func TestVersionFlag(t *testing.T) {
	out, _, code := runCLI(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "stateproof ") || !strings.Contains(out, version) {
		t.Errorf("exit %d, %q", code, out)
	}
	// A build without a revision says why instead of silently printing
	// less than the README promises (issue 38 item 9).
	if strings.Contains(out, "(revision ") == strings.Contains(out, "no VCS revision recorded") {
		t.Errorf("--version neither shows a revision nor says why it has none: %q", out)
	}
}

func TestBOMAccepted(t *testing.T) {
	data, err := os.ReadFile("../../examples/retry.json")
	if err != nil {
		t.Fatal(err)
	}
	p := writeTemp(t, "bom.json", "\uFEFF"+string(data))
	plain, _, _ := runCLI(t, "verify", "../../examples/retry.json", "--json")
	out, stderr, code := runCLI(t, "verify", p, "--json")
	if code != 0 || out != plain {
		t.Errorf("exit %d (%s); report differs from the one without BOM", code, stderr)
	}
}
