package progress

import (
	"math/rand/v2"
	"testing"
)

// bfs builds the parent links and depths of a random graph in
// breadth-first order, the way a search stores them.
func bfs(rng *rand.Rand, n int) (parent, depth []int) {
	parent, depth = []int{-1}, []int{0}
	for i := 0; len(parent) < n && i < len(parent); i++ {
		for range rng.IntN(4) {
			parent = append(parent, i)
			depth = append(depth, depth[i]+1)
		}
	}
	return parent, depth
}

func TestLevelsMatchDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		parent, depth := bfs(rng, 1+rng.IntN(500))
		var l Levels
		// Sample at random points of a search: node e next to expand, its
		// successors not yet stored.
		for e := 0; e < len(parent); e += 1 + rng.IntN(8) {
			stored := len(parent)
			for stored > 1 && parent[stored-1] >= e {
				stored-- // children of nodes not yet expanded are not stored yet
			}
			stored = max(stored, e+1)
			if got := l.At(e, stored, func(i int) int { return parent[i] }); got != depth[e] {
				t.Fatalf("trial %d: depth of node %d = %d, want %d", trial, e, got, depth[e])
			}
		}
	}
}

func TestLevelsChain(t *testing.T) {
	var l Levels
	parent := func(i int) int { return i - 1 }
	for _, e := range []int{0, 1, 5, 1000, 1 << 20} {
		if got := l.At(e, e+1, parent); got != e {
			t.Fatalf("chain: depth of node %d = %d", e, got)
		}
	}
	// the search ended: nothing left to expand, the depth stays the last one's
	if got := l.At(1<<20+1, 1<<20+1, parent); got != 1<<20 {
		t.Fatalf("ended chain: depth %d, want %d", got, 1<<20)
	}
}
