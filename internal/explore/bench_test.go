package explore

import (
	"runtime"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
)

// benchSearch runs the plain search of a generated model and reports the
// heap bytes per stored node (peak of the live heap after the search, as
// runtime.MemStats sees it) as B/state.
func benchSearch(b *testing.B, src string, workers int) {
	mc := machine(b, src)
	var states int
	var peak uint64
	for b.Loop() {
		g := Search{Machine: mc, Cap: 1 << 30, Workers: workers}.Run()
		states = g.Len()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
		runtime.KeepAlive(g)
	}
	b.ReportMetric(float64(peak)/float64(states), "B/state")
	b.ReportMetric(float64(states), "states")
}

func BenchmarkSearchCounter10M(b *testing.B) { benchSearch(b, gen.Counter(10_000_000), 1) }
func BenchmarkSearchCounter10MWorkers2(b *testing.B) {
	benchSearch(b, gen.Counter(10_000_000), 2)
}
func BenchmarkSearchToggles22(b *testing.B) { benchSearch(b, gen.Toggles(22), 1) }
func BenchmarkSearchToggles22Workers2(b *testing.B) {
	benchSearch(b, gen.Toggles(22), 2)
}

func BenchmarkSearchToggles16(b *testing.B) { benchSearch(b, gen.Toggles(16), 1) }

func BenchmarkSearchToggles18(b *testing.B) { benchSearch(b, gen.Toggles(18), 1) }

func BenchmarkSearchToggles20(b *testing.B) { benchSearch(b, gen.Toggles(20), 1) }

func BenchmarkSearchToggles20Workers2(b *testing.B) { benchSearch(b, gen.Toggles(20), 2) }

// BenchmarkInternCounter10M interns the ten million nodes of the counter
// chain in order, their words and hashes computed beforehand and their
// table slots touched well ahead: the part of a chain-shaped search that a
// level-synchronous search cannot share out, since each level holds one
// node. Its time over BenchmarkSearchCounter10M's bounds what a second
// worker could gain on a chain without guessing levels ahead
// (docs/models.md).
func BenchmarkInternCounter10M(b *testing.B) {
	mc := machine(b, gen.Counter(10_000_000))
	g0 := Search{Machine: mc, Cap: 1 << 30}.Run()
	n, stride := g0.Len(), g0.stride
	words := make([]int64, 0, n*stride)
	hashes := make([]uint64, n)
	for i := range n {
		p := g0.packedNode(i)
		words = append(words, p...)
		hashes[i] = HashWords(p)
	}
	g0 = nil
	const ahead = 4 * prefetchGroup
	var sink uint64
	for b.Loop() {
		g := newGraph(mc, 0, 1<<30)
		for i := range n {
			if i%prefetchGroup == 0 && i+ahead < n {
				sink += g.prefetch(hashes[i+ahead-prefetchGroup : i+ahead])
			}
			if _, isNew := g.intern(words[i*stride:(i+1)*stride], hashes[i], i-1, 0); !isNew {
				b.Fatalf("node %d interned twice", i)
			}
		}
	}
	runtime.KeepAlive(sink)
}
