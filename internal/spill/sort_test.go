package spill

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestSorter sorts more records than its memory holds, in chunks, and
// reads them back in order, with the chunk files gone afterwards.
func TestSorter(t *testing.T) {
	d, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, 5000} {
		s := d.NewSorter(3, 1000) // 17 records a chunk
		var want [][]uint64
		for range n {
			rec := []uint64{r.Uint64N(4), r.Uint64(), uint64(len(want))}
			want = append(want, rec)
			if err := s.Add(rec); err != nil {
				t.Fatal(err)
			}
		}
		if n >= 100 && s.Chunks() == 0 {
			t.Fatalf("%d records: no chunk written", n)
		}
		if s.MemoryBytes() > 2000 {
			t.Fatalf("%d records: the sorter holds %d bytes", n, s.MemoryBytes())
		}
		slices.SortFunc(want, slices.Compare)
		var got [][]uint64
		if err := s.Each(func(rec []uint64) bool { got = append(got, slices.Clone(rec)); return true }); err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%d records: sorted %d, wrong order or records", n, len(got))
		}
		if d.Used() != 0 || s.Chunks() != 0 {
			t.Fatalf("%d records: %d bytes, %d chunks left", n, d.Used(), s.Chunks())
		}
	}
}

// TestSorterInMemory sorts in memory records whose first words differ in
// every byte, in a few low bytes only, or not at all (the radix sort's
// passes, skipped passes and ties), of one word and of three.
func TestSorterInMemory(t *testing.T) {
	d, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r := rand.New(rand.NewPCG(3, 4))
	firsts := map[string]func() uint64{
		"random":  r.Uint64,
		"low":     func() uint64 { return 0xabcd<<40 | r.Uint64N(1<<20) },
		"one":     func() uint64 { return 7 },
		"highlow": func() uint64 { return r.Uint64N(4)<<62 | r.Uint64N(4) },
	}
	for name, first := range firsts {
		for _, w := range []int{1, 3} {
			s := d.NewSorter(w, 1<<30)
			var want [][]uint64
			for range 3000 {
				rec := []uint64{first()}
				for range w - 1 {
					rec = append(rec, r.Uint64N(3))
				}
				want = append(want, rec)
				if err := s.Add(rec); err != nil {
					t.Fatal(err)
				}
			}
			slices.SortFunc(want, slices.Compare)
			var got [][]uint64
			if err := s.Each(func(rec []uint64) bool { got = append(got, slices.Clone(rec)); return true }); err != nil {
				t.Fatal(err)
			}
			if s.Chunks() != 0 || !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%s, %d words: wrong order", name, w)
			}
		}
	}
}

// BenchmarkSorterLevel sorts a wide level's successors as a spilling
// search makes them: keys that differ in their low 20 bits, then the
// edge that reached them, in chunks of 20,000.
func BenchmarkSorterLevel(b *testing.B) {
	d, err := Open(b.TempDir(), 0)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	r := rand.New(rand.NewPCG(5, 6))
	recs := make([]uint64, 3*1_000_000)
	for i := 0; i < len(recs); i += 3 {
		recs[i], recs[i+1], recs[i+2] = r.Uint64N(1<<20), uint64(i), r.Uint64N(40)
	}
	for b.Loop() {
		s := d.NewSorter(3, 20_000*(3*8+32))
		for i := 0; i < len(recs); i += 3 {
			if err := s.Add(recs[i : i+3]); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Each(func([]uint64) bool { return true }); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSorterMergeMemory: merging many chunks holds about the sorter's
// memory in read buffers, not a fixed buffer per chunk (855 chunks of 16
// KiB once held 13 MiB against a sorter of 64 KiB), and the records still
// come in order.
func TestSorterMergeMemory(t *testing.T) {
	d, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const memory, n = 64 << 10, 1_000_000
	s := d.NewSorter(3, memory)
	r := rand.New(rand.NewPCG(7, 8))
	for i := range n {
		if err := s.Add([]uint64{r.Uint64N(1 << 20), uint64(i), 0}); err != nil {
			t.Fatal(err)
		}
	}
	if s.Chunks() < 500 {
		t.Fatalf("%d chunks", s.Chunks())
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var held uint64
	count, prev := 0, []uint64{0, 0, 0}
	if err := s.Each(func(rec []uint64) bool {
		if count == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			held = ms.HeapAlloc - min(base, ms.HeapAlloc)
		}
		if slices.Compare(prev, rec) > 0 {
			t.Fatalf("record %d out of order", count)
		}
		copy(prev, rec)
		count++
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if count != n || d.Used() != 0 {
		t.Fatalf("%d records, %d bytes left on disk", count, d.Used())
	}
	if held > 1<<20 {
		t.Fatalf("the merge holds %d KiB, for a sorter of %d KiB", held>>10, memory>>10)
	}
	t.Logf("merge holds %d KiB", held>>10)
}

// TestSorterMergesAnyNumberOfChunks merges 1 to 40 chunks of random
// lengths (some empty of records after the first) at once, whose records
// interleave, tie on their first word and run out at different times:
// the tournament gives them back in order, each once.
func TestSorterMergesAnyNumberOfChunks(t *testing.T) {
	d, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r := rand.New(rand.NewPCG(7, 8))
	for k := 1; k <= 40; k++ {
		s := d.NewSorter(2, 1<<30)
		var want [][]uint64
		for range k {
			for range r.IntN(60) {
				rec := []uint64{r.Uint64N(16), uint64(len(want))}
				want = append(want, rec)
				if err := s.Add(rec); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.flush(); err != nil {
				t.Fatal(err)
			}
		}
		if len(want) > 0 && s.Chunks() < 2 && k > 2 {
			t.Fatalf("%d chunks wanted, %d written", k, s.Chunks())
		}
		slices.SortFunc(want, slices.Compare)
		var got [][]uint64
		if err := s.Each(func(rec []uint64) bool { got = append(got, slices.Clone(rec)); return true }); err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%d chunks: %d records back of %d, or out of order", k, len(got), len(want))
		}
	}
}
