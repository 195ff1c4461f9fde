package explore

import (
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/spill"
)

// benchSpill runs the spilling search of a generated model with a budget
// of memory bytes, from its start (Now), and reports the peak disk per
// state: the time of the spill path, which a test cannot bound on a
// loaded machine (TestSpillHeapWithinBudget bounds its heap).
func benchSpill(b *testing.B, src string, memory int64) {
	mc := machine(b, src)
	var st SpillStats
	for b.Loop() {
		d, err := spill.Open(b.TempDir(), 0)
		if err != nil {
			b.Fatal(err)
		}
		g := Search{Machine: mc, Cap: 1 << 30, Spill: &Spill{Memory: memory, Dir: d, Now: true}}.Run()
		if g.Err() != nil {
			b.Fatal(g.Err())
		}
		st = g.SpillStats()
		d.Close()
	}
	b.ReportMetric(float64(st.PeakDisk)/float64(st.Nodes), "disk-B/state")
	b.ReportMetric(float64(st.Nodes), "states")
}

func BenchmarkSpillToggles20(b *testing.B)  { benchSpill(b, gen.Toggles(20), 6<<20) }
func BenchmarkSpillCounter3M(b *testing.B)  { benchSpill(b, gen.Counter(3_000_000), 14<<20) }
func BenchmarkSearchCounter3M(b *testing.B) { benchSearch(b, gen.Counter(3_000_000), 1) }
