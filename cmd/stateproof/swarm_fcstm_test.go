package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
)

// huntedFindings lists, sorted, the code and path length of every finding
// of a verify --json report (findings of its checks) or a merge --json
// report (violations) that a swarm hunts on FCSTM models.
func huntedFindings(t *testing.T, data string) []string {
	t.Helper()
	type finding struct {
		Code string            `json:"code"`
		Path []json.RawMessage `json:"path"`
	}
	var doc struct {
		Checks []struct {
			Findings []finding `json:"findings"`
		} `json:"checks"`
		Violations []finding `json:"violations"`
	}
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	all := doc.Violations
	for _, c := range doc.Checks {
		all = append(all, c.Findings...)
	}
	var out []string
	for _, f := range all {
		if f.Code == "FCSTM_CYCLE_RAISES" || f.Code == "FCSTM_DEAD_END" {
			out = append(out, fmt.Sprintf("%s/%d", f.Code, len(f.Path)))
		}
	}
	slices.Sort(out)
	return out
}

// TestSwarmFCSTM: swarm members search FCSTM models (the examples whose
// space is small, and generated families), and merge combines their
// reports into the one-process verify's cycles that raise and dead ends,
// with paths as short; with nothing found both are undecided. A report
// naming its model inside its folder merges without --model.
func TestSwarmFCSTM(t *testing.T) {
	dir := t.TempDir()
	models := []string{"../../examples/fcstm/explain/raises.fcstm", "../../examples/fcstm/explain/zero-divisor.fcstm",
		"../../examples/fcstm/explain/tank-level.fcstm", "../../examples/fcstm/washing_machine.fcstm"}
	for name, src := range map[string]string{
		"counter.fcstm":  gen.CounterFCSTM(40),
		"toggles.fcstm":  gen.TogglesFCSTM(5),
		"raising.fcstm":  strings.Replace(gen.CounterFCSTM(60), "c = c + 1;", "c = c + 1 + 0 / (25 - c);", 1),
		"unstarts.fcstm": "def int x = 0;\nstate R { state A; state B { enter { x = 1 / x; } } [*] -> A; A -> B :: Go; B -> A :: Back; }\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		models = append(models, p)
	}
	for _, m := range models {
		verifyOut, _, code := runCLI(t, "verify", m, "--json")
		if code == 3 || code == 2 {
			t.Fatalf("%s: verify exit %d: the space must be searched whole", m, code)
		}
		want := huntedFindings(t, verifyOut)
		t.Logf("%s: verify %v", filepath.Base(m), want)
		var reports []string
		for i := range 3 {
			p := filepath.Join(dir, fmt.Sprintf("%s.s%d.json", filepath.Base(m), i))
			_, stderr, code := runCLI(t, "verify", m, "--swarm", fmt.Sprintf("%d/3", i), "--json", "-o", p)
			if code != 1 && code != 3 {
				t.Fatalf("%s member %d: exit %d %s", m, i, code, stderr)
			}
			reports = append(reports, p)
		}
		out, stderr, code := runCLI(t, append([]string{"merge", "--json", "--model", m}, reports...)...)
		if got := huntedFindings(t, out); !slices.Equal(got, want) {
			t.Errorf("%s: merge found %v, verify %v", m, got, want)
		}
		if wantCode := map[bool]int{true: 3, false: 1}[len(want) == 0]; code != wantCode || strings.Contains(out, `"provedShortest": false`) {
			t.Errorf("%s: merge exit %d, want %d\n%s%s", m, code, wantCode, out, stderr)
		}
		if len(want) == 0 && !strings.Contains(out, `"verdict": "undecided"`) {
			t.Errorf("%s: merge of nothing found:\n%s", m, out)
		}
	}
	// a report naming its model inside its folder
	data, err := os.ReadFile(filepath.Join(dir, "raising.fcstm.s0.json"))
	if err != nil {
		t.Fatal(err)
	}
	named := strings.Replace(string(data), `"model": "`+filepath.Join(dir, "raising.fcstm")+`"`, `"model": "raising.fcstm"`, 1)
	if named == string(data) {
		t.Fatalf("no model field to rewrite:\n%s", data)
	}
	r := filepath.Join(dir, "named.json")
	if err := os.WriteFile(r, []byte(named), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := runCLI(t, "merge", r); code != 1 || !strings.Contains(out, "FCSTM_CYCLE_RAISES") || !strings.Contains(out, "(27 steps)") {
		t.Errorf("merge of a report naming its FCSTM model: exit %d\n%s%s", code, out, stderr)
	}
	// no budget: the paths are kept as found, and said so
	if out, _, code := runCLI(t, "merge", r, "--timeout-ms", "0", "--json"); code != 1 || !strings.Contains(out, `"shortenStopped": "the time budget ran out at step 0`) || strings.Contains(out, `"provedShortest": true`) {
		t.Errorf("merge --timeout-ms 0: exit %d\n%s", code, out)
	}
	// another model's report is refused: the hashes differ
	if _, stderr, code := runCLI(t, "merge", r, "--model", filepath.Join(dir, "counter.fcstm")); code != 2 || !strings.Contains(stderr, "modelHash") {
		t.Errorf("merge on another model: exit %d %s", code, stderr)
	}
}

// TestSwarmFCSTMRefusals: the flags a swarm member on an FCSTM model
// cannot honour are refused, each message naming both flags.
func TestSwarmFCSTMRefusals(t *testing.T) {
	door := "../../examples/fcstm/door.fcstm"
	for _, tc := range []struct {
		args []string
		name []string
	}{
		{[]string{"--workers", "2"}, []string{"--workers", "--swarm"}},
		{[]string{"--memory", "1GiB"}, []string{"--memory", "--swarm"}},
		{[]string{"--partition", "0/2"}, []string{"--partition", "--swarm"}},
		{[]string{"--local-partitions", "2"}, []string{"--local-partitions", "--swarm"}},
		{[]string{"--check", `check reach <= 2: active("Door.Open");`}, []string{"--check", "--swarm"}},
		{[]string{"--format", "sarif"}, []string{"--format sarif", "--swarm"}},
		{[]string{"--format", "html"}, []string{"--format html", "--swarm"}},
	} {
		_, stderr, code := runCLI(t, append([]string{"verify", door, "--swarm", "0/2"}, tc.args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d %s", tc.args, code, stderr)
		}
		for _, f := range tc.name {
			if !strings.Contains(stderr, f) {
				t.Errorf("%v: the refusal does not name %s: %s", tc.args, f, stderr)
			}
		}
	}
	if _, stderr, code := runCLI(t, "verify", door, "--swarm", "2/2"); code != 2 || !strings.Contains(stderr, "0 <= I < N") {
		t.Errorf("--swarm 2/2: exit %d %s", code, stderr)
	}
}
