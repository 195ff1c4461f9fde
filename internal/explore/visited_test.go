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
// indexes (8 bytes a word), which level.budget leaves no room for; and
// every node is found in the runs afterwards at its index.
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

// TestSpillSetProbe: the in-memory table finds every node at its index
// through its growths, and a node that is not stored is not found even
// when probed with a stored node's hash (the bits a slot keeps of the hash
// agree: the key decides).
func TestSpillSetProbe(t *testing.T) {
	d, err := spill.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const n = 5000
	s := newSpillSet(d, 2)
	words := make([]int64, 2*n)
	hs := make([]uint64, n)
	for i := range hs {
		words[2*i], words[2*i+1] = int64(i), -int64(i)
		hs[i] = HashWords(words[2*i : 2*i+2])
		if err := s.Add(words[2*i:2*i+2], hs[i:i+1], 100+i); err != nil {
			t.Fatal(err)
		}
	}
	for i := range hs {
		if got := s.Probe(words[2*i:2*i+2], hs[i]); got != 100+i {
			t.Fatalf("node %d probed at %d", i, got)
		}
		if absent := []int64{int64(i), int64(i) + 1}; s.Probe(absent, hs[i]) >= 0 {
			t.Fatalf("absent %v found with node %d's hash", absent, i)
		}
	}
}

// TestSpillSetGrowsWithoutCopies: filling the in-memory part allocates its
// keys and indexes once, in chunks, beside its slots (which double), not
// in slices grown by append, whose old arrays stayed live beside the new
// ones and, counted once, let gen counter 30000000 pass its budget.
func TestSpillSetGrowsWithoutCopies(t *testing.T) {
	d, err := spill.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const stride, n, batch = 1, 1 << 20, 4096
	s := newSpillSet(d, stride)
	words := make([]int64, batch*stride)
	hs := make([]uint64, batch)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for first := 0; first < n; first += batch {
		for i := range hs {
			words[i] = int64(first + i)
			hs[i] = HashWords(words[i : i+1])
		}
		if err := s.Add(words, hs, first); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	alloc := int64(after.TotalAlloc - before.TotalAlloc)
	once := int64(n) * (stride + 1) * 8
	slots := 2 * int64(len(s.table)) * 4 // every table the slots doubled through
	if alloc > once+slots+1<<20 {
		t.Fatalf("adding %d nodes allocated %d bytes; their keys and indexes are %d, the slots at most %d", n, alloc, once, slots)
	}
	if s.memBytes() != once+int64(len(s.table))*4 {
		t.Fatalf("memBytes %d, want %d", s.memBytes(), once+int64(len(s.table))*4)
	}
	for i := 0; i < n; i += 9973 {
		if got := s.Probe([]int64{int64(i)}, HashWords([]int64{int64(i)})); got != i {
			t.Fatalf("node %d probed at %d", i, got)
		}
	}
}
