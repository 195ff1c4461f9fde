package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestIgnoredFlagsRefused: a flag that would have no effect in the mode
// the other flags choose is a usage error (exit 2) whose message names the
// flag and what it cannot be combined with, for every command (issue 38
// item 2). Each refusal comes before any file is read, so the models named
// do not exist: a combination accepted by mistake then fails to read its
// model instead of starting workers (a --local-partitions run would start
// copies of this test binary) or waiting for peers.
func TestIgnoredFlagsRefused(t *testing.T) {
	const (
		model = "../../examples/no-such-model.json"
		fcstm = "../../examples/fcstm/no-such-model.fcstm"
	)
	part := []string{"--partition", "0/2", "--peers", "127.0.0.1:1,127.0.0.1:2"}
	with := func(a []string, b ...string) []string { return append(append([]string(nil), a...), b...) }
	for _, c := range []struct {
		args []string
		want []string // substrings of the message: the flags it names
	}{
		{with(part, "verify", model, "--progress", "plain"), []string{"--progress", "--partition"}},
		// verify: the partition's own flags
		{[]string{"verify", model, "--peers", "a:1,b:2"}, []string{"--peers", "without --partition"}},
		{[]string{"verify", model, "--token-file", "t"}, []string{"--token-file", "without --partition"}},
		{[]string{"verify", model, "--tls-ca", "ca.pem"}, []string{"--tls-ca", "without --partition"}},
		{[]string{"verify", model, "--peer-timeout", "1s"}, []string{"--peer-timeout", "--partition or --local-partitions"}},
		{[]string{"verify", model, "--gather"}, []string{"--gather", "--partition or --local-partitions"}},
		{[]string{"verify", model, "--local-partitions", "2", "--peers", "a:1,b:2"}, []string{"--peers", "--local-partitions"}},
		{[]string{"verify", model, "--local-partitions", "2", "--token-file", "t"}, []string{"--token-file", "--local-partitions"}},
		// verify: a swarm member ignores the checks' options
		{[]string{"verify", model, "--seed", "7"}, []string{"--seed", "--swarm"}},
		{[]string{"verify", model, "--swarm", "0/2", "--workers", "2"}, []string{"--workers", "--swarm"}},
		{[]string{"verify", model, "--swarm", "0/2", "--memory", "1GiB"}, []string{"--memory", "--swarm"}},
		{[]string{"verify", model, "--swarm", "0/2", "--max-findings", "3"}, []string{"--max-findings", "--swarm"}},
		{[]string{"verify", model, "--swarm", "0/2", "--allow-undecided"}, []string{"--allow-undecided", "--swarm"}},
		{[]string{"verify", model, "--swarm", "0/2", "--color", "never"}, []string{"--color", "--swarm"}},
		// verify: --hash-check runs no check
		{[]string{"verify", model, "--hash-check", strings.Repeat("0", 64), "--max-states", "9"}, []string{"--max-states", "--hash-check"}},
		{[]string{"verify", model, "--hash-check", strings.Repeat("0", 64), "--prove"}, []string{"--prove", "--hash-check"}},
		{[]string{"verify", model, "--hash-check", strings.Repeat("0", 64), "--hash-spec", "v0"}, []string{"--hash-spec", "--hash-check"}},
		// verify: an FCSTM model has none of the JSON-only checks (its
		// search takes --workers and the spill flags: TestVerifyFCSTMScale)
		{[]string{"verify", fcstm, "--max-findings", "3"}, []string{"--max-findings", "FCSTM"}},
		{[]string{"verify", fcstm, "--max-permutation-events", "3"}, []string{"--max-permutation-events", "FCSTM"}},
		{[]string{"verify", model, "--import-root", "."}, []string{"--import-root", "JSON model"}},
		// verify: a query is decided by one in-memory search of an FCSTM model
		{[]string{"verify", fcstm, "--check", "check reach <= 1: true;", "--swarm", "0/2"}, []string{"--swarm", "--check"}},
		{[]string{"verify", fcstm, "-q", "q.fbmcq", "--partition", "0/2"}, []string{"--partition", "--query"}},
		{[]string{"verify", fcstm, "-q", "q.fbmcq", "--local-partitions", "2"}, []string{"--local-partitions", "--query"}},
		{[]string{"verify", fcstm, "-q", "q.fbmcq", "--hash-check", strings.Repeat("0", 64)}, []string{"--hash-check", "--query"}},
		{[]string{"verify", fcstm, "-q", "q.fbmcq", "--check", "check reach <= 1: true;"}, []string{"--query", "--check"}},
		{[]string{"verify", fcstm, "--all-depths"}, []string{"--all-depths", "--query or --check"}},
		{[]string{"verify", fcstm, "--check", "check reach <= 1: true;", "--workers", "2"}, []string{"--workers", "-q/--check"}},
		{[]string{"verify", fcstm, "--check", "check reach <= 1: true;", "--memory", "1MiB"}, []string{"--memory", "-q/--check"}},
		{[]string{"verify", model, "--check", "check reach <= 1: true;"}, []string{"--check", "FCSTM", "stateproof bmc"}},
		// output flags, on every command that has them
		{[]string{"verify", model, "--json", "--format", "sarif"}, []string{"--json", "--format sarif"}},
		{[]string{"verify", model, "--color", "always", "--format", "json"}, []string{"--color", "--format json"}},
		{[]string{"verify", model, "--color", "always", "-o", "r.txt"}, []string{"--color", "--output"}},
		{[]string{"compose", model, model, "--json", "--format", "html"}, []string{"--json", "--format html"}},
		{[]string{"compose", model, model, "--color", "never", "--format", "sarif"}, []string{"--color", "--format sarif"}},
		{[]string{"compose", model, model, "--import-root", "."}, []string{"--import-root", "compose"}},
		{[]string{"compose", model, model, "--baseline", "b.json", "--allow-undecided"}, []string{"--allow-undecided", "--baseline"}},
		{[]string{"verify", model, "--baseline", "b.json", "--allow-undecided"}, []string{"--allow-undecided", "--baseline"}},
		{[]string{"bmc", model, "--bound", "2", "--json", "--format", "sarif"}, []string{"--json", "--format sarif"}},
		{[]string{"bmc", model, "--bound", "2", "--color", "always"}, []string{"--color", "bmc"}},
		{[]string{"bmc", model, "--bound", "2", "--no-incomplete-check"}, []string{"--no-incomplete-check", "--bound"}},
		{[]string{"prove", model, "--json", "--format", "html"}, []string{"--json", "--format html"}},
		{[]string{"prove", model, "--color", "always"}, []string{"--color", "prove"}},
		{[]string{"prove", model, "--stats", "--json"}, []string{"--stats", "--format json"}},
		{[]string{"prove", model, "--stats", "--format", "sarif"}, []string{"--stats", "--format sarif"}},
		{[]string{"prove", model, "--workers", "2", "--layers", "spacer"}, []string{"--workers", "--layers spacer"}},
		{[]string{"merge", "s0.json", "--json", "--format", "text"}, []string{"--json", "--format text"}},
		{[]string{"merge", "s0.json", "--color", "always"}, []string{"--color", "merge"}},
		{[]string{"merge", "s0.json", "--format", "sarif"}, []string{"merge writes --format text or json"}},
		{[]string{"merge", "s0.json", "--import-root", "."}, []string{"--import-root", "merge"}},
		// the presentation and tooling commands
		{[]string{"show", model, "--detail"}, []string{"--detail", "--form A"}},
		{[]string{"show", model, "--detail", "--form", "B"}, []string{"--detail", "--form B"}},
		{[]string{"fmt", fcstm, "--lang", "fbmcq"}, []string{"--lang", "files"}},
		{[]string{"gen", "counter", "3", "--max-input-bytes", "10"}, []string{"--max-input-bytes", "gen"}},
		{[]string{"gen", "counter", "3", "--import-root", "."}, []string{"--import-root", "gen"}},
		{[]string{"schema", "--import-root", "."}, []string{"--import-root", "schema"}},
	} {
		stdout, stderr, code := runCLI(t, c.args...)
		if code != exitInput {
			t.Errorf("%v: exit %d, want 2 (stdout %q, stderr %q)", c.args, code, stdout, stderr)
			continue
		}
		msg := stderr + stdout // a --json refusal is a JSON document on stdout
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: message %q does not name %q", c.args, msg, w)
			}
		}
	}
}

// TestFlagsThatCombine: the refusals above leave the combinations that
// work alone (each of these fails only for the reason shown, if at all).
func TestFlagsThatCombine(t *testing.T) {
	const model = "../../examples/retry.json"
	for _, args := range [][]string{
		{"verify", model, "--memory", "1GiB", "--color", "never"},
		{"verify", model, "--swarm", "0/2", "--seed", "7", "--json"},
		{"verify", model, "--json", "--format", "json"},
		{"show", model, "--detail", "--form", "Auto"},
		{"bmc", model, "--bound", "2", "--json"},
	} {
		if _, stderr, code := runCLI(t, args...); code == exitInput {
			t.Errorf("%v: refused: %s", args, stderr)
		}
	}
}

// TestUsageTexts: the smaller findings of issue 38 item 8.13 — a
// negative size is named as such, merge --help offers only the formats
// merge writes, and verify --help names every probe the report can hold.
func TestUsageTexts(t *testing.T) {
	for _, args := range [][]string{
		{"verify", "../../examples/retry.json", "--memory", "-1"},
		{"verify", "../../examples/retry.json", "--max-disk=-5GiB"},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != exitInput || !strings.Contains(stderr, "must not be negative") || strings.Contains(stderr, "unknown unit") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
	help, _, _ := runCLI(t, "merge", "--help")
	for _, line := range strings.Split(help, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--format string") && (strings.Contains(line, "sarif") || strings.Contains(line, "html")) {
			t.Errorf("merge --help offers a format merge refuses: %q", line)
		}
	}
	// the highest probe a report holds (A15 needs an ltl invariant)
	out, _, _ := runCLI(t, "verify", "../../examples/traffic-light-fair.json", "--json")
	var rep struct{ Checks []struct{ ID string } }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	top := 0
	for _, c := range rep.Checks {
		if n, err := strconv.Atoi(strings.TrimPrefix(c.ID, "A")); err == nil && c.ID[0] == 'A' {
			top = max(top, n)
		}
	}
	help, _, _ = runCLI(t, "verify", "--help")
	if want := fmt.Sprintf("A1-A%d", top); top < 15 || !strings.Contains(help, want) {
		t.Errorf("verify --help does not name %s (report's probes up to A%d)", want, top)
	}
}
