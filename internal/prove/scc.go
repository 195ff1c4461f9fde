package prove

import (
	"slices"

	"github.com/stateproof/stateproof/internal/scc"
)

// components returns the strongly connected components of the node graph
// in a topological order of the condensation: every edge between two
// components goes from an earlier to a later one. Within a component the
// nodes are in ascending order. (Tarjan's algorithm, internal/scc, emits
// components in reverse topological order; the result is reversed.)
func components(n int, edges []Edge) [][]int {
	// compressed rows, each node's edges in the order given: the search
	// visits them in the order a list per node would
	off := make([]int, n+1)
	for _, e := range edges {
		off[e.From+1]++
	}
	for v := range n {
		off[v+1] += off[v]
	}
	to, at := make([]int32, len(edges)), slices.Clone(off[:n])
	for _, e := range edges {
		to[at[e.From]] = int32(e.To)
		at[e.From]++
	}
	var out [][]int
	var s scc.Scratch
	s.Find(off, to, nil, func(members []int32) {
		c := make([]int, len(members))
		for i, v := range members {
			c[i] = int(v)
		}
		slices.Sort(c)
		out = append(out, c)
	})
	slices.Reverse(out)
	return out
}
