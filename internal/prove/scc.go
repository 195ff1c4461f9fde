package prove

// components returns the strongly connected components of the node graph
// in a topological order of the condensation: every edge between two
// components goes from an earlier to a later one. Within a component the
// nodes are in ascending order. (Tarjan's algorithm emits components in
// reverse topological order; the result is reversed.)
func components(n int, edges []Edge) [][]int {
	succ := make([][]int, n)
	for _, e := range edges {
		succ[e.From] = append(succ[e.From], e.To)
	}
	t := tarjan{succ: succ, index: make([]int, n), low: make([]int, n), on: make([]bool, n)}
	for i := range t.index {
		t.index[i] = -1
	}
	for v := 0; v < n; v++ {
		if t.index[v] < 0 {
			t.visit(v)
		}
	}
	out := make([][]int, len(t.comps))
	for i, c := range t.comps {
		out[len(t.comps)-1-i] = c
	}
	return out
}

type tarjan struct {
	succ       [][]int
	index, low []int
	on         []bool
	stack      []int
	next       int
	comps      [][]int
}

// visit is the recursive step of Tarjan's algorithm. Graphs here are
// models' state graphs (tens to thousands of nodes), so recursion depth is
// not a concern.
func (t *tarjan) visit(v int) {
	t.index[v], t.low[v] = t.next, t.next
	t.next++
	t.stack = append(t.stack, v)
	t.on[v] = true
	for _, w := range t.succ[v] {
		if t.index[w] < 0 {
			t.visit(w)
			t.low[v] = min(t.low[v], t.low[w])
		} else if t.on[w] {
			t.low[v] = min(t.low[v], t.index[w])
		}
	}
	if t.low[v] != t.index[v] {
		return
	}
	var comp []int
	for {
		w := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.on[w] = false
		comp = append(comp, w)
		if w == v {
			break
		}
	}
	sortInts(comp)
	t.comps = append(t.comps, comp)
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
