package spill

import (
	"math/rand/v2"
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
		s := d.NewSorter(3, 1000) // 35 records a chunk
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
