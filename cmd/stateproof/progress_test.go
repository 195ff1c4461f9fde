package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
)

// progressLines parses stderr as JSON progress lines and fails on any
// other line.
func progressLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if line == "" {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("stderr line %q is not JSON: %v", line, err)
		}
		if obj["kind"] != "progress" {
			t.Fatalf("line %q: kind %v", line, obj["kind"])
		}
		if _, ok := obj["elapsed_ms"].(float64); !ok {
			t.Fatalf("line %q: no elapsed_ms", line)
		}
		out = append(out, obj)
	}
	return out
}

// hasFields fails unless obj has every key.
func hasFields(t *testing.T, obj map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			t.Errorf("progress line %v has no %q", obj, k)
		}
	}
}

// Each long command prints progress on stderr in the format asked, and its
// report on stdout is byte for byte the one it prints without progress.
func TestProgressFormats(t *testing.T) {
	counter := writeTemp(t, "counter.json", gen.Counter(1_500_000))
	small := writeTemp(t, "small.json", gen.Counter(60))
	// 1 ms: the short runs (bmc: tens of milliseconds; prove on peterson.json:
	// about 250 ms, where the 60-state counter ends in 10 ms, before a tick) see lines
	fast := []string{"--progress-interval", "1ms"}
	cases := []struct {
		name   string
		args   []string
		engine string
		fields []string
	}{
		{"verify", []string{"verify", counter, "--max-states", "2000000", "--workers", "1"}, "search", []string{"task", "states", "states_per_s", "depth", "queue"}},
		{"compose", []string{"compose", small, small, small, "--max-states", "2000000"}, "search", []string{"task", "states", "depth", "queue"}},
		{"bmc", []string{"bmc", writeTemp(t, "c200.json", gen.Counter(200)), "--bound", "200"}, "bmc", []string{"query", "queries", "bound", "max_bound", "stage"}},
		{"prove", []string{"prove", "../../examples/peterson.json", "--timeout-ms", "30000"}, "prove", []string{"task", "layer", "proved", "violated", "properties"}},
		{"simulate", []string{"simulate", "../../examples/fcstm/door.fcstm", "--events", strings.Repeat(";", 30000)}, "simulate", []string{"cycle", "cycles"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			quiet, quietErr, quietCode := runCLI(t, append(c.args, "--progress", "none", "--json")...)
			if quietErr != "" {
				t.Errorf("--progress none wrote to stderr: %q", quietErr)
			}
			out, stderr, code := runCLI(t, append(append(c.args, "--progress", "json", "--json"), fast...)...)
			if code != quietCode || (c.name != "prove" && c.name != "bmc" && out != quiet) {
				t.Errorf("with --progress json: exit %d (%d without), same report %v", code, quietCode, out == quiet)
			}
			lines := progressLines(t, stderr)
			if len(lines) == 0 {
				t.Fatalf("no progress line on a long run (stdout %.200s)", out)
			}
			for _, l := range lines {
				if l["engine"] != c.engine {
					t.Fatalf("line %v: engine, want %s", l, c.engine)
				}
			}
			hasFields(t, lines[len(lines)-1], c.fields...)
			if strings.Contains(out, `"kind":"progress"`) || strings.Contains(out, `"kind": "progress"`) {
				t.Error("progress on stdout")
			}
		})
	}
	out, stderr, _ := runCLI(t, "verify", counter, "--max-states", "2000000", "--workers", "1", "--progress", "plain", "--progress-interval", "20ms")
	if !strings.Contains(stderr, "stateproof: verifying "+counter+": ") || !strings.Contains(stderr, "states stored") || !strings.Contains(stderr, "states/s, depth ") {
		t.Errorf("--progress plain: %q", stderr)
	}
	if strings.Contains(out, "states stored") {
		t.Error("--progress plain wrote to stdout")
	}
	if _, stderr, _ := runCLI(t, "verify", counter, "--max-states", "2000000", "--workers", "1"); stderr != "" {
		t.Errorf("--progress auto with stderr not a terminal: %q", stderr)
	}
}

// The reports with elapsed times differ run to run; their verdicts do not
// depend on progress.
func TestProgressLeavesVerdicts(t *testing.T) {
	small := writeTemp(t, "small.json", gen.Counter(60))
	for _, args := range [][]string{{"bmc", small, "--bound", "60"}, {"prove", small}} {
		a, _, ca := runCLI(t, append(args, "--json", "--progress", "none")...)
		b, _, cb := runCLI(t, append(args, "--json", "--progress", "json", "--progress-interval", "5ms")...)
		var da, db map[string]any
		if json.Unmarshal([]byte(a), &da) != nil || json.Unmarshal([]byte(b), &db) != nil || ca != cb {
			t.Fatalf("%v: exit %d and %d", args, ca, cb)
		}
		for _, k := range []string{"verdict", "outcome", "exit_code"} {
			if da[k] != db[k] {
				t.Errorf("%v: %s %v without progress, %v with", args, k, da[k], db[k])
			}
		}
	}
}

func TestProgressBadValue(t *testing.T) {
	for _, cmd := range []string{"verify", "compose", "bmc", "prove", "simulate"} {
		_, stderr, code := runCLI(t, cmd, "x.json", "--progress", "loud")
		if code != 2 || !strings.Contains(stderr, "--progress") || !strings.Contains(stderr, "auto, plain, json or none") {
			t.Errorf("%s --progress loud: exit %d, %q", cmd, code, stderr)
		}
	}
}
