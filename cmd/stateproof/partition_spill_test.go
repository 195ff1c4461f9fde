package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/gen"
)

// TestLocalPartitionsSpill (issue 42 item 2): --memory and --spill-dir
// with --local-partitions were refused (no worker spilled); now every
// worker keeps its states within its own budget, in its own directory
// under --spill-dir, and the report is the in-memory partitioned report
// byte for byte, with the same exit status, on JSON and FCSTM models (examples
// and generated families), the spill directory left empty.
func TestLocalPartitionsSpill(t *testing.T) {
	dir := t.TempDir()
	models, _ := filepath.Glob("../../examples/*.json")
	models = append(models, fcstmScaleModels(t)...)
	for name, src := range map[string]string{"toggles12.json": gen.Toggles(12), "counter400.json": gen.Counter(400), "probes3.json": gen.Probes(3)} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		models = append(models, p)
	}
	for _, model := range models {
		// a cap: a level costs round trips, and counters have one a state
		// (the partitioned report, whose whole-graph checks are undecided,
		// is the one-process report elsewhere: TestLocalPartitionsSameReport)
		// (at a 1 KiB budget every level goes to disk: a loaded machine
		// may take past the default 5 s peer timeout to answer a call)
		base := []string{"verify", model, "--json", "--max-states", "5000", "--local-partitions", "2", "--peer-timeout", "60s"}
		want, _, wantCode := runBin(t, time.Minute, base...)
		spillDir := t.TempDir()
		got, errs, code := runBin(t, time.Minute, append(base, "--memory", "1KiB", "--spill-dir", spillDir)...)
		if got != want || code != wantCode {
			t.Errorf("%s, 2 spilling local partitions: exit %d (want %d), report differs:\n%s\n%s", filepath.Base(model), code, wantCode, firstDiff(got, want), errs)
		}
		if strings.Contains(model, "toggles") && strings.Count(errs, "spilled its states") != 2 {
			t.Errorf("%s: not every worker spilled:\n%s", filepath.Base(model), errs)
		}
		if left, _ := os.ReadDir(spillDir); len(left) > 0 {
			t.Errorf("%s: spill files left: %v", filepath.Base(model), left)
		}
	}
}
