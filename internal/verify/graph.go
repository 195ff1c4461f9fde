package verify

import (
	"stateproof/internal/jsonmodel"
	"stateproof/internal/jsonvalue"
	"stateproof/internal/runtime"
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

// tarjan returns the component number of each node (iterative, so deep
// graphs cannot overflow the stack).
func tarjan(n int, adj [][]int) []int {
	index := make([]int, n)
	low := make([]int, n)
	comp := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int
	next, ncomp := 0, 0
	type frame struct{ v, edge int }
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.edge < len(adj[f.v]) {
				w := adj[f.v][f.edge]
				f.edge++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
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

// UnhandledPairs returns the (non-terminal state, event) pairs with no
// transition, states in declaration order and events sorted (S5 and A1).
func UnhandledPairs(mc *runtime.Machine) [][2]string {
	var out [][2]string
	for si, s := range mc.Model.States {
		if s.Terminal {
			continue
		}
		for ei, ev := range mc.Events {
			if !mc.HasGroup(si, ei) {
				out = append(out, [2]string{s.ID, ev})
			}
		}
	}
	return out
}
