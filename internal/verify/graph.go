package verify

import (
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/scc"
)

// DeadEnds returns the non-terminal states that are the source of no
// transition, in declaration order (S2's rule, also used by D4).
func DeadEnds(m *jsonmodel.Model) []string {
	has := map[string]bool{}
	for _, t := range m.Transitions {
		has[t.From] = true
	}
	var out []string
	for _, s := range m.States {
		if !s.Terminal && !has[s.ID] {
			out = append(out, s.ID)
		}
	}
	return out
}

// SCC is a strongly connected component of the state graph.
type SCC struct {
	States      []string // sorted by UTF-16 code units
	Transitions int      // internal transitions
}

// ClosedSCCs returns the components with an internal edge, no edge leaving
// them and no terminal member (S3's rule, also used by D4), in order of
// their smallest declaration index.
func ClosedSCCs(m *jsonmodel.Model) []SCC {
	idx := m.StateIndex()
	n := len(m.States)
	adj := make([][]int, n)
	for _, t := range m.Transitions {
		adj[idx[t.From]] = append(adj[idx[t.From]], idx[t.To])
	}
	comp := tarjan(n, adj)
	ncomp := 0
	for _, c := range comp {
		ncomp = max(ncomp, c+1)
	}
	internal := make([]int, ncomp)
	exits := make([]bool, ncomp)
	terminal := make([]bool, ncomp)
	first := make([]int, ncomp)
	for i := range first {
		first[i] = n
	}
	for i, s := range m.States {
		c := comp[i]
		first[c] = min(first[c], i)
		if s.Terminal {
			terminal[c] = true
		}
		for _, j := range adj[i] {
			if comp[j] == c {
				internal[c]++
			} else {
				exits[c] = true
			}
		}
	}
	var out []SCC
	for i := 0; i < n; i++ {
		c := comp[i]
		if first[c] != i || internal[c] == 0 || exits[c] || terminal[c] {
			continue
		}
		var members []string
		for j, s := range m.States {
			if comp[j] == c {
				members = append(members, s.ID)
			}
		}
		jsonvalue.SortUTF16(members)
		out = append(out, SCC{States: members, Transitions: internal[c]})
	}
	return out
}

// tarjan numbers the components of a graph given as adjacency lists.
func tarjan(n int, adj [][]int) []int {
	off := make([]int, n+1)
	var to []int32
	for v := 0; v < n; v++ {
		for _, w := range adj[v] {
			to = append(to, int32(w))
		}
		off[v+1] = len(to)
	}
	comp := scc.Numbers(off, to, nil)
	out := make([]int, n)
	for i, c := range comp {
		out[i] = int(c)
	}
	return out
}

// UnhandledPairs returns the (non-terminal state, event) pairs with no
// transition, states in declaration order and events sorted (S5 and A1).
//
// Only the first limit pairs are returned (limit <= 0: all of them) and
// total counts every pair: a model with 1000 states and 1000 events has up
// to a million, which are counted, not built.
func UnhandledPairs(mc *runtime.Machine, limit int) (pairs [][2]string, total int) {
	for si, s := range mc.Model.States {
		if s.Terminal {
			continue
		}
		for ei, ev := range mc.Events {
			if !mc.HasGroup(si, ei) {
				if limit <= 0 || len(pairs) < limit {
					pairs = append(pairs, [2]string{s.ID, ev})
				}
				total++
			}
		}
	}
	return pairs, total
}
