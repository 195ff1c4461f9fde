package verify

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// sameReportModels are the models the worker-count and ridden-monitor
// tests run: the examples, the broken examples, and generated models
// (random, exact big integers, every probe kind, a chain, a wide space).
func sameReportModels(t *testing.T) map[string][]byte {
	t.Helper()
	models := map[string][]byte{}
	for _, dir := range []string{"../../examples", "../../examples/broken"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("no examples in %s: %v", dir, err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			models[p] = data
		}
	}
	for seed := range uint64(25) {
		models[fmt.Sprintf("random-%d", seed)] = []byte(gen.Random(seed))
		models[fmt.Sprintf("bigsteps-%d", seed)] = []byte(gen.BigSteps(seed))
	}
	models["probes-12"] = []byte(gen.Probes(12))
	models["counter-300"] = []byte(gen.Counter(300))
	models["toggles-9"] = []byte(gen.Toggles(9))
	models["ring-7"] = []byte(gen.Ring(7))
	return models
}

// reportBytes verifies a model and renders the JSON report.
func reportBytes(t *testing.T, src []byte, opts Options) []byte {
	t.Helper()
	res, err := jsonmodel.Decode(src)
	if err != nil {
		t.Fatal(err)
	}
	data, err := report.Indent(Run(res, opts).JSON())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The report is the same byte for byte whatever the number of workers,
// with batches small enough that every worker count really splits them,
// at the default cap and at caps that stop the searches part way.
func TestReportSameForAnyWorkerCount(t *testing.T) {
	for name, src := range sameReportModels(t) {
		for _, maxStates := range []int{10000, 40, 7} {
			opts := DefaultOptions()
			opts.MaxStates = maxStates
			opts.minParallel = 1
			want := reportBytes(t, src, opts)
			for _, workers := range []int{2, 4, 7} {
				opts.Workers = workers
				if got := reportBytes(t, src, opts); !bytes.Equal(got, want) {
					t.Errorf("%s, maxStates %d: the report with %d workers differs from the one with 1:\n%s", name, maxStates, workers, firstDiff(want, got))
				}
			}
		}
	}
}

// The monitors riding on the exploration decide exactly what each path
// invariant's own search decides: same witness, same cap verdict, same
// counts.
func TestRiddenMonitorsMatchTheirOwnSearches(t *testing.T) {
	for name, src := range sameReportModels(t) {
		for _, maxStates := range []int{10000, 40, 7} {
			opts := DefaultOptions()
			opts.MaxStates = maxStates
			ridden := reportBytes(t, src, opts)
			opts.alone = true
			if alone := reportBytes(t, src, opts); !bytes.Equal(ridden, alone) {
				t.Errorf("%s, maxStates %d: ridden monitors and their own searches disagree:\n%s", name, maxStates, firstDiff(alone, ridden))
			}
		}
	}
}

// firstDiff shows the first differing line of two reports.
func firstDiff(want, got []byte) string {
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := range min(len(wl), len(gl)) {
		if !bytes.Equal(wl[i], gl[i]) {
			return fmt.Sprintf("line %d\nwant %s\ngot  %s", i+1, wl[i], gl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(wl), len(gl))
}
