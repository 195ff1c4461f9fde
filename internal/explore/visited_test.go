package explore

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stateproof/stateproof/internal/spill"
)

// TestSpillSortsInPlace: spilling the in-memory part allocates its order
// (4 bytes a node) and the run's filter, not a sorted copy of its keys and
// indexes (8 bytes a word), which level.budget no longer leaves room for;
// and every node is found in the runs afterwards at its index.
func TestSpillSortsInPlace(t *testing.T) {
	d, err := spill.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const stride, n = 4, 200_000
	s := newSpillSet(d, stride)
	rng := rand.New(rand.NewPCG(5, 6))
	words := make([]int64, n*stride)
	hs := make([]uint64, n)
	for i := range hs {
		for j := range stride {
			words[i*stride+j] = rng.Int64N(1 << 40)
		}
		hs[i] = HashWords(words[i*stride : (i+1)*stride])
	}
	if err := s.Add(words, hs, 0); err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := s.spill(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	// the filter is 1.5 times 12 bits a node; a copy would be 40 bytes
	alloc := int64(after.TotalAlloc - before.TotalAlloc)
	if limit := int64(n)*(4+3) + 1<<20; alloc > limit {
		t.Fatalf("spilling %d nodes of %d words allocated %d bytes; want at most %d", n, stride, alloc, limit)
	}
	idx := make([]int, n)
	if err := s.Settle(words, hs, idx); err != nil {
		t.Fatal(err)
	}
	for i, x := range idx {
		if x != i {
			t.Fatalf("node %d settled at %d", i, x)
		}
	}
}
