package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
)

// fcstmScaleModels are the FCSTM models whose reports must not depend on
// how the search runs: every example and the generated families (a chain
// that ends in a dead end, and a wide space whose levels are split over
// the workers).
func fcstmScaleModels(t *testing.T) []string {
	t.Helper()
	models, err := filepath.Glob("../../examples/fcstm/*.fcstm")
	if err != nil || len(models) < 5 {
		t.Fatalf("examples %v: %v", models, err)
	}
	dir := t.TempDir()
	for name, src := range map[string]string{"counter.fcstm": gen.CounterFCSTM(3000), "toggles.fcstm": gen.TogglesFCSTM(12)} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		models = append(models, p)
	}
	return models
}

// verify on an FCSTM model gives the plain run's report, byte for byte,
// whatever the workers and the memory budget (docs/scale.md); a spilling
// run says so on stderr only.
func TestVerifyFCSTMScale(t *testing.T) {
	for _, model := range fcstmScaleModels(t) {
		base := []string{"verify", model, "--json", "--max-states", "5000"}
		want, _, wantCode := runCLI(t, base...)
		if !strings.Contains(want, `"FCSTM-S1"`) {
			t.Fatalf("%s: no search in\n%s", model, want)
		}
		for _, extra := range [][]string{
			{"--workers", "1"}, {"--workers", "2"}, {"--workers", "4"},
			{"--memory", "1KiB", "--spill-dir", t.TempDir()},
			{"--memory", "64KiB", "--spill-dir", t.TempDir(), "--workers", "2"},
		} {
			got, stderr, code := runCLI(t, append(base, extra...)...)
			if got != want || code != wantCode {
				t.Errorf("%s %v: exit %d (want %d), report differs:\n%s\nstderr: %s", filepath.Base(model), extra, code, wantCode, firstDiff(got, want), stderr)
			}
			if spills := strings.Contains(stderr, "spilled"); extra[0] == "--memory" && extra[1] == "1KiB" && strings.Contains(model, "gles") && !spills {
				t.Errorf("%s %v: did not spill: %q", filepath.Base(model), extra, stderr)
			}
		}
	}
}
