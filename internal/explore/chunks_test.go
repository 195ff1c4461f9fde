package explore

import "testing"

// fill sets exactly the elements of its range, across chunk edges.
func TestChunksFill(t *testing.T) {
	for lo := range 14 {
		for hi := lo; hi <= 14; hi++ {
			c := newChunks[int](4)
			for range 4 {
				c.add()
			}
			c.fill(lo, hi, 7)
			for i := range 16 {
				want := 0
				if i >= lo && i < hi {
					want = 7
				}
				if got := c.chunk(i / 4)[i%4]; got != want {
					t.Fatalf("fill(%d, %d): element %d is %d, want %d", lo, hi, i, got, want)
				}
			}
		}
	}
}
