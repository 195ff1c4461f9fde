package explore

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/gen"
)

// peakHeap runs f while sampling the heap, and returns the most it saw
// above the heap before f. The collector runs at 5% growth meanwhile, so
// the heap is the live heap within a few percent.
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
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
// budget.
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
	t.Logf("peak live heap %.1f MiB", mib(int64(peak)))
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
