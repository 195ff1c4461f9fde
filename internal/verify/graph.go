package verify

import (
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/runtime"
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
	comp := tarjanCSR(n, off, to, nil)
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

// tarjanCSR numbers the strongly connected components of a graph in
// compressed rows (edges of v are to[off[v]:off[v+1]]; negative targets
// are ignored, and so are all edges of a node with sink[v] set). Components
// are numbered in completion order, which is a reverse topological order:
// every edge leaving a component enters one with a smaller number.
func tarjanCSR(n int, off []int, to []int32, sink []bool) []int32 {
	index := make([]int32, n)
	low := make([]int32, n)
	comp := make([]int32, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int32
	var next, ncomp int32
	type frame struct {
		v    int32
		edge int
	}
	var call []frame
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call = append(call[:0], frame{int32(root), off[root]})
		index[root], low[root] = next, next
		next++
		stack = append(stack, int32(root))
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			end := off[v+1]
			if sink != nil && sink[v] {
				end = off[v]
			}
			if f.edge < end {
				w := to[f.edge]
				f.edge++
				switch {
				case w < 0:
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					call = append(call, frame{w, off[w]})
				case comp[w] < 0: // on the stack
					low[v] = min(low[v], index[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
		}
	}
	return comp
}
