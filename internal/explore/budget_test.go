package explore

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/gen"
)

// peakHeap runs f while sampling the live heap, and returns the most it
// saw above the live heap before f. The live heap is what the last
// collection found reachable (runtime/metrics /gc/heap/live:bytes), not
// what is allocated at the moment, which also counts the garbage not yet
// collected and so depends on how far the collector lags behind, that is
// on the machine's load. The collector runs at 5% growth meanwhile, so
// the collections are close enough together to see the peak within a few
// percent.
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
		}
	}()
	f()
	close(done)
	wg.Wait()
	if peak < base {
		return 0
	}
	return peak - base
}

// TestSpillHeapWithinBudget: a spilling search's live heap stays within
// its budget plus what the budget does not bound (the filters of the
// spilled states, twice while one is rebuilt, and the node chunks read
// back), whatever the width of its levels: the widest level of toggles
// 20 is 184,756 nodes, which once held about 40 MiB against a 4 MiB
// budget. The limit comes to 15.4 MiB; 7.6 MiB is measured (14.2 MiB
// while every chunk of a level being merged had a 16 KiB read buffer).
func TestSpillHeapWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of a million nodes")
	}
	mc := machine(t, gen.Toggles(20))
	const budget = 4 << 20
	var g *Graph
	peak := peakHeap(func() {
		g = Search{Machine: mc, Cap: 1 << 22, Spill: &Spill{Memory: budget, Dir: spillDir(t, 0), Now: true}}.Run()
	})
	if g.Len() != 1<<20 || g.Err() != nil {
		t.Fatalf("%d nodes, %v", g.Len(), g.Err())
	}
	filters := 2 * g.spill.set.runs.MemoryBytes()
	cache := int64(chunkCache) * int64(g.stride*8+8) << g.bits
	const slack = 4 << 20
	if limit := budget + filters + cache + slack; int64(peak) > limit {
		t.Fatalf("peak live heap %.1f MiB, over the budget %.1f MiB + filters %.1f MiB + chunks read back %.1f MiB + %.1f MiB",
			mib(int64(peak)), mib(budget), mib(filters), mib(cache), mib(slack))
	}
	t.Logf("peak live heap %.1f MiB (limit %.1f MiB)", mib(int64(peak)), mib(budget+filters+cache+slack))
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
