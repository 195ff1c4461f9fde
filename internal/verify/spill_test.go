package verify

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/spill"
)

func spilling(t *testing.T, memory int64, nodes int, maxDisk int64) *Spilling {
	t.Helper()
	d, err := spill.Open(t.TempDir(), maxDisk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return &Spilling{Spill: explore.Spill{Memory: memory, Dir: d, MemoryNodes: nodes}}
}

// The report is the same byte for byte when the exploration spills to
// disk every few nodes, with one worker and with two, at the default cap
// and at caps that stop the searches part way.
func TestReportSameWhenSpilled(t *testing.T) {
	spilled := 0
	for name, src := range sameReportModels(t) {
		for _, maxStates := range []int{10000, 7} {
			opts := DefaultOptions()
			opts.MaxStates = maxStates
			want := reportBytes(t, src, opts)
			for _, workers := range []int{1, 2}[:1+maxStates/10000] {
				opts.Workers = workers
				opts.Spill = spilling(t, 1<<30, 4, 0)
				if got := reportBytes(t, src, opts); !bytes.Equal(got, want) {
					t.Errorf("%s, maxStates %d, %d workers: the spilled report differs:\n%s", name, maxStates, workers, firstDiff(want, got))
				}
				if opts.Spill.Err != nil {
					t.Errorf("%s: %v", name, opts.Spill.Err)
				}
				if opts.Spill.Stats.SpilledNodes > 0 {
					spilled++
				}
			}
		}
	}
	if spilled < 50 {
		t.Fatalf("only %d runs spilled", spilled)
	}
}

func runWith(t *testing.T, path string, opts Options) *report.VerifyReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return Run(res, opts)
}

// findingOf returns the first finding of a check with the code, or nil.
func findingOf(r *report.VerifyReport, check, code string) *report.Finding {
	for _, c := range r.Checks {
		if c.ID != check {
			continue
		}
		for i := range c.Findings {
			if c.Findings[i].Code == code {
				return &c.Findings[i]
			}
		}
	}
	return nil
}

// The checks that need the whole graph's edges (A9 leads-to, fair or
// not, A12 budget, A13 probability, A15 LTL) report undecided, with the reason, when a spilled
// graph's edges do not fit in the memory budget; S3 and D4 read the
// declared state graph, not the explored one, and are decided.
func TestWholeGraphChecksBeyondMemory(t *testing.T) {
	for _, tc := range []struct{ path, check, code string }{
		{"../../examples/traffic-light.json", "A9", "A9_LEADS_TO_UNDECIDED"},
		{"../../examples/dispatcher.json", "A12", "A12_UNDECIDED"},
		{"../../examples/gamblers-ruin.json", "A13", "A13_UNDECIDED"},
		{"../../examples/traffic-light-fair.json", "A9", "A9_LEADS_TO_UNDECIDED"},
		{"../../examples/traffic-light-fair.json", "A15", "A15_LTL_UNDECIDED"},
	} {
		opts := DefaultOptions()
		in := runWith(t, tc.path, opts)
		if findingOf(in, tc.check, tc.code) != nil {
			t.Fatalf("%s: undecided in memory already", tc.path)
		}
		opts.Spill = spilling(t, 64, 2, 0)
		r := runWith(t, tc.path, opts)
		f := findingOf(r, tc.check, tc.code)
		if f == nil {
			t.Fatalf("%s: no %s when the graph is larger than --memory", tc.path, tc.code)
		}
		if !strings.Contains(f.Message, "graph larger than --memory") || f.Evidence.Get("capKind") != "memory" {
			t.Errorf("%s: %s", tc.code, f.Message)
		}
		if v, _ := r.Verdict(); v == report.Pass || v == report.PassWithFindings {
			t.Errorf("%s: verdict %s with a check not decided", tc.path, v)
		}
		if opts.Spill.Stats.SpilledNodes == 0 {
			t.Errorf("%s: nothing spilled", tc.path)
		}
	}
}

// A spilling search that reaches the disk budget stops there, and the
// checks it would decide are undecided, saying so.
func TestDiskBudgetUndecided(t *testing.T) {
	opts := DefaultOptions()
	opts.MaxStates = 100000
	opts.Spill = spilling(t, 1<<30, 50, 2048)
	res, err := jsonmodel.Decode([]byte(gen.Probes(30)))
	if err != nil {
		t.Fatal(err)
	}
	r := Run(res, opts)
	if !r.Truncated || opts.Spill.Err != nil {
		t.Fatalf("truncated %v, err %v", r.Truncated, opts.Spill.Err)
	}
	if v, _ := r.Verdict(); v == report.Pass || v == report.PassWithFindings {
		t.Fatalf("verdict %s", v)
	}
	found := false
	for _, c := range r.Checks {
		for _, f := range c.Findings {
			if strings.HasSuffix(f.Code, "_UNDECIDED") && strings.Contains(f.Message, "disk budget reached") && f.Evidence.Get("capKind") == "maxDisk" {
				found = true
			}
		}
	}
	if !found {
		t.Fatal("no undecided finding names the disk budget")
	}
}

// The report of a search the disk budget stopped says so where a person
// reads first, the header and the next steps, and blames no other limit:
// raising --max-states would change nothing.
func TestDiskBudgetNamedInHeaderAndNextSteps(t *testing.T) {
	opts := DefaultOptions()
	opts.MaxStates = 100000
	opts.Spill = spilling(t, 1<<30, 50, 2048)
	res, err := jsonmodel.Decode([]byte(gen.Probes(30)))
	if err != nil {
		t.Fatal(err)
	}
	r := Run(res, opts)
	if !slices.Contains(r.StoppedBy, "maxDisk") || slices.Contains(r.StoppedBy, "maxStates") {
		t.Fatalf("StoppedBy = %q, want maxDisk and not maxStates", r.StoppedBy)
	}
	var b strings.Builder
	if err := report.WriteVerifyText(&b, "probes", r, report.Style{}); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	header, _, _ := strings.Cut(text, "\n\n")
	if !strings.Contains(header, "--max-disk") || strings.Contains(header, "cap of 100000 runtime states") {
		t.Errorf("header does not name --max-disk alone:\n%s", header)
	}
	steps := strings.Join(r.NextSteps(), "\n")
	if !strings.Contains(steps, "Raise --max-disk and re-run") || strings.Contains(steps, "Raise maxStates") {
		t.Errorf("next steps do not name --max-disk alone:\n%s", steps)
	}
}

// The path invariants' monitors ride on a spilled exploration as on one
// in memory: gen probes' invariants of every path kind are decided by the
// one spilling search, with no search of their own (there was one per
// invariant: half of the CPU of gen counter's spilling run).
func TestSpilledExplorationCarriesMonitors(t *testing.T) {
	for name, src := range map[string]string{"probes": gen.Probes(20)} {
		res, err := jsonmodel.Decode([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		opts := DefaultOptions()
		opts.Spill = spilling(t, 1<<30, 4, 0)
		_, e := runEnv(res, opts)
		if len(e.spilled) != 1 || opts.Spill.Stats.SpilledNodes == 0 {
			t.Errorf("%s: %d spilling searches, %d nodes spilled; want the exploration's alone", name, len(e.spilled), opts.Spill.Stats.SpilledNodes)
		}
	}
}
