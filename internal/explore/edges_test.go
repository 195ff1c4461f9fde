package explore

import (
	"fmt"
	goruntime "runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/runtime"
)

// The edges a search keeps are the ones Adjacency rebuilds by stepping
// every node again: same rows, same order, same targets and labels, at
// any cap, in batches, pipelined and in chain epochs, with monitors.
func TestKeptEdgesAreAdjacency(t *testing.T) {
	models := map[string]string{"toggles": gen.Toggles(8), "counter": gen.Counter(1000), "ring": gen.Ring(40), "probes": gen.Probes(6)}
	for seed := range uint64(8) {
		models[fmt.Sprintf("random-%d", seed)] = gen.Random(seed)
		models[fmt.Sprintf("bigsteps-%d", seed)] = gen.BigSteps(seed)
	}
	kept := 0
	for name, src := range models {
		mc := machine(t, src)
		for _, cap := range []int{5, 63, 64, 65, 300, 1001, 5000} {
			want := Search{Machine: mc, Cap: cap}.Run().Adjacency()
			for _, s := range []Search{
				{Workers: 1},
				{Workers: 2, MinParallel: 1},
				{Workers: 2, epochLevels: 100},
				{Workers: 1, batchesOnly: true, Monitors: []Monitor{parity}},
				{Workers: 2, Monitors: []Monitor{parity}},
				{Workers: 4, MinParallel: 1},
				{Workers: 3, MinParallel: 2, Monitors: []Monitor{parity}},
			} {
				s.Machine, s.Cap, s.KeepEdges = mc, cap, true
				g := s.Run()
				if g.kept == nil {
					if !mc.MergesOutcomes() {
						t.Fatalf("%s: the edges of a machine that merges nothing are not kept", name)
					}
					continue
				}
				kept++
				if got := g.Adjacency(); !equalAdjacency(got, want) {
					t.Errorf("%s cap %d, %d workers (epoch %d, %d monitors): the kept edges are not Adjacency's", name, cap, s.Workers, s.epochLevels, len(s.Monitors))
				}
			}
		}
	}
	if kept == 0 {
		t.Fatal("no search kept its edges")
	}
}

// equalAdjacency compares the rows, targets and labels (an empty list
// may be nil in one and not the other).
func equalAdjacency(a, b *Adjacency) bool {
	return slices.Equal(a.Off, b.Off) && slices.Equal(a.To, b.To) && slices.Equal(a.Via, b.Via)
}

// counting is a machine that counts its steps.
type counting struct {
	*runtime.Machine
	steps *atomic.Int64
}

func (c counting) Successors(src []int64, buf *concrete.Buffer) []concrete.Outcome {
	c.steps.Add(1)
	return c.Machine.Successors(src, buf)
}

func (c counting) Fired(src []int64, buf *concrete.Buffer) []concrete.Outcome {
	c.steps.Add(1)
	return c.Machine.Fired(src, buf)
}

// Adjacency steps no node again after a search that kept its edges, and
// every expanded node after one that did not (a plain search, which must
// not pay for edges).
func TestKeptEdgesNotSteppedAgain(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		for _, keep := range []bool{false, true} {
			var steps atomic.Int64
			m := counting{machine(t, gen.Toggles(10)), &steps}
			g := Search{Machine: m, Cap: 1 << 20, Workers: workers, MinParallel: 1, KeepEdges: keep}.Run()
			searched := steps.Load()
			a := g.Adjacency()
			again := steps.Load() - searched
			want := int64(0)
			if !keep {
				want = int64(g.Expanded)
			}
			if again != want {
				t.Errorf("%d workers, keep %v: Adjacency stepped %d nodes, want %d", workers, keep, again, want)
			}
			if len(a.To) != 10<<10 {
				t.Errorf("%d workers, keep %v: %d edges, want %d", workers, keep, len(a.To), 10<<10)
			}
		}
	}
}

// The edges are not kept where they would not be Adjacency's: a machine
// whose Successors merges outcomes (two branches of one event into one
// runtime), extra words, an edge callback.
func TestEdgesKeptOnlyWhereExact(t *testing.T) {
	merging := machine(t, `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "B"}],
	  "transitions": [{"from": "A", "event": "e", "to": "B"}, {"from": "A", "event": "e", "to": "B"}, {"from": "B", "event": "e", "to": "A"}]}`)
	g := Search{Machine: merging, Cap: 10, KeepEdges: true}.Run()
	if g.kept != nil {
		t.Error("a merging machine's edges are kept")
	}
	if a := g.Adjacency(); len(a.To) != 3 {
		t.Errorf("Adjacency of the merging machine has %d edges, want 3 (both branches A -> B)", len(a.To))
	}
	mc := machine(t, gen.Toggles(4))
	for name, s := range map[string]Search{
		"extra":    {Extra: 1},
		"callback": {OnEdge: func(*Graph, int, int, []int64) Edge { return Keep }},
	} {
		s.Machine, s.Cap, s.KeepEdges = mc, 100, true
		if s.Run().kept != nil {
			t.Errorf("%s: the edges are kept", name)
		}
	}
}

// The chunks the edges were kept in are collected when Adjacency has
// copied them out, so that the checks which run next reuse their memory
// rather than piling on top of it (issue 42 item 3: peak memory).
func TestKeptChunksCollected(t *testing.T) {
	g := Search{Machine: machine(t, gen.Toggles(16)), Cap: 1 << 17, KeepEdges: true}.Run()
	a := g.Adjacency()
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	goruntime.GC()
	goruntime.ReadMemStats(&after)
	chunks := uint64(len(a.To)) * 8
	if freed := int64(before.HeapAlloc) - int64(after.HeapAlloc); freed > int64(chunks/4) {
		t.Errorf("%d bytes were still to collect after Adjacency; the chunks of %d edges hold %d", freed, len(a.To), chunks)
	}
	goruntime.KeepAlive(a)
}

// TestKeptChunksReturned checks that the chunks Adjacency has copied out
// are given back to the operating system, not kept idle by the heap: the
// exact-size arrays take fresh pages, so chunks kept resident until the
// collector reuses them would add the edges' size again to the peak
// (issue 42 item 3; docs/liveness.md#kept-edges).
func TestKeptChunksReturned(t *testing.T) {
	g := Search{Machine: machine(t, gen.Toggles(17)), Cap: 1 << 18, KeepEdges: true}.Run()
	a := g.Adjacency()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	chunks := uint64(len(a.To)) * 8
	// Idle bytes right after Adjacency: 0 to 24 KiB alone, 4.7 MB once
	// in CI (package tests in parallel); with the release removed, 2.0,
	// 3.4 and 12.9 MB (the runtime's scavenger returns some of the
	// chunks by itself, so this catches a missing release only some of
	// the time).
	if held := ms.HeapIdle - ms.HeapReleased; held > chunks/2 {
		t.Errorf("the heap holds %d idle bytes after Adjacency; the chunks of %d edges hold %d", held, len(a.To), chunks)
	} else {
		t.Logf("%d idle bytes after Adjacency, chunks of %d bytes", held, chunks)
	}
	goruntime.KeepAlive(a)
}
