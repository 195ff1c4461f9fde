package fair

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/scc"
)

// randomProblem is a graph of up to 5 nodes and 8 edges over 3 events,
// with each event's enabledness a superset of the edges it labels (a
// model's edge to a target is outside the region but still enables).
func randomProblem(r *rand.Rand) *Problem {
	n := 1 + r.IntN(5)
	type edge struct{ from, to, ev int32 }
	var es []edge
	for range r.IntN(9) {
		es = append(es, edge{int32(r.IntN(n)), int32(r.IntN(n)), int32(r.IntN(3))})
	}
	slices.SortFunc(es, func(a, b edge) int { return int(a.from - b.from) })
	g := &Graph{Off: make([]int, n+1)}
	for _, e := range es {
		g.To, g.Event = append(g.To, e.to), append(g.Event, e.ev)
		g.Off[e.from+1]++
	}
	for v := range n {
		g.Off[v+1] += g.Off[v]
	}
	en := make([][]int32, n)
	for v := range n {
		for e := int32(0); e < 3; e++ {
			has := false
			for k := g.Off[v]; k < g.Off[v+1]; k++ {
				has = has || g.Event[k] == e
			}
			if has || r.IntN(4) == 0 {
				en[v] = append(en[v], e)
			}
		}
	}
	p := &Problem{G: g, Enabled: func(v int) []int32 { return en[v] }, Starts: []int{0}}
	if r.IntN(3) > 0 {
		p.Weak = []bool{r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0}
	}
	if r.IntN(3) > 0 {
		p.Strong = []bool{r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0}
	}
	p.NAcc = r.IntN(3)
	if p.NAcc > 0 {
		acc := make([]uint64, n)
		for v := range acc {
			acc[v] = uint64(r.IntN(1 << p.NAcc))
		}
		p.Acc = func(v int32) uint64 { return acc[v] }
	}
	return p
}

// fairInfSet reports whether an infinite path that takes exactly the edges
// in set infinitely often is fair and accepting: the inf-set semantics of
// the conditions, with no SCCs involved.
func fairInfSet(p *Problem, set []int) bool {
	g := p.G.(*Graph)
	nodes := map[int32]bool{}
	taken := map[int32]bool{}
	for _, k := range set {
		nodes[src(g, k)], nodes[g.To[k]] = true, true
		taken[g.Event[k]] = true
	}
	var acc uint64
	enabledSome, enabledAll := map[int32]bool{}, map[int32]int{}
	for v := range nodes {
		if p.Acc != nil {
			acc |= p.Acc(v)
		}
		for _, e := range p.Enabled(int(v)) {
			enabledSome[e] = true
			enabledAll[e]++
		}
	}
	if acc&allSets(p.NAcc) != allSets(p.NAcc) {
		return false
	}
	for e := int32(0); e < 3; e++ {
		if flag(p.Weak, e) && !taken[e] && enabledAll[e] == len(nodes) {
			return false
		}
		if flag(p.Strong, e) && enabledSome[e] && !taken[e] {
			return false
		}
	}
	return true
}

func src(g *Graph, k int) int32 {
	for v := 0; ; v++ {
		if g.Off[v+1] > k {
			return int32(v)
		}
	}
}

// bruteForce tries every edge set that can be a path's inf-set: non-empty,
// strongly connected, reachable from a start.
func bruteForce(p *Problem) bool {
	g := p.G.(*Graph)
	m := len(g.To)
	reach := reachable(g, map[int32]bool{int32(p.Starts[0]): true}, nil)
	for mask := 1; mask < 1<<m; mask++ {
		var set []int
		for k := range m {
			if mask&(1<<k) != 0 {
				set = append(set, k)
			}
		}
		if !reach[src(g, set[0])] || !stronglyConnected(g, set) {
			continue
		}
		if fairInfSet(p, set) {
			return true
		}
	}
	return false
}

func reachable(g *Graph, from map[int32]bool, only []int) map[int32]bool {
	seen := map[int32]bool{}
	var stack []int32
	for v := range from {
		seen[v] = true
		stack = append(stack, v)
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for k := g.Off[v]; k < g.Off[v+1]; k++ {
			if only != nil && !slices.Contains(only, k) {
				continue
			}
			if w := g.To[k]; !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return seen
}

func stronglyConnected(g *Graph, set []int) bool {
	nodes := map[int32]bool{}
	for _, k := range set {
		nodes[src(g, k)], nodes[g.To[k]] = true, true
	}
	for v := range nodes {
		r := reachable(g, map[int32]bool{v: true}, set)
		for w := range nodes {
			if !r[w] {
				return false
			}
		}
	}
	return true
}

// TestFindAgreesWithInfSets: on 20000 random graphs, Find finds a lasso
// exactly when some inf-set is fair and accepting, and the lasso it gives
// starts at a start, is connected, closes, and its cycle is fair.
func TestFindAgreesWithInfSets(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 1))
	found := 0
	for i := range 20000 {
		p := randomProblem(r)
		l, ok := Find(p)
		if want := bruteForce(p); ok != want {
			t.Fatalf("graph %d: Find %v, brute force %v: %+v weak %v strong %v nacc %d", i, ok, want, p.G, p.Weak, p.Strong, p.NAcc)
		}
		if !ok {
			continue
		}
		found++
		at := int32(l.Start)
		if l.Start != p.Starts[0] {
			t.Fatalf("graph %d: lasso starts at %d", i, l.Start)
		}
		for _, k := range append(slices.Clone(l.Prefix), l.Cycle...) {
			if src(p.G.(*Graph), k) != at {
				t.Fatalf("graph %d: lasso %+v breaks at edge %d", i, l, k)
			}
			at = p.G.(*Graph).To[k]
		}
		if len(l.Cycle) == 0 || at != src(p.G.(*Graph), l.Cycle[0]) || !fairInfSet(p, l.Cycle) {
			t.Fatalf("graph %d: cycle %+v does not close or is unfair", i, l)
		}
	}
	if found < 2000 {
		t.Errorf("only %d of 20000 graphs had a lasso: the generator is too sparse to test much", found)
	}
}

// A chain of a million nodes closing on itself does not exhaust the stack.
func TestDeepGraph(t *testing.T) {
	const n = 1 << 20
	g := &Graph{Off: make([]int, n+1), To: make([]int32, n), Event: make([]int32, n)}
	for v := range n {
		g.Off[v+1] = v + 1
		g.To[v] = int32((v + 1) % n)
	}
	l, ok := Find(&Problem{G: g, Starts: []int{0}})
	if !ok || len(l.Cycle) != n {
		t.Fatalf("ok %v, cycle of %d edges", ok, len(l.Cycle))
	}
}

// TestParentGiven: a caller's breadth-first tree (Problem.Parent) gives
// the lasso Find gives when it searches itself, on random graphs whose
// nodes are all reachable from the start.
func TestParentGiven(t *testing.T) {
	tried := reachableProblems(rand.New(rand.NewPCG(29, 1)), 20000, func(i int, p *Problem) {
		q := *p
		q.Parent = nil
		want, wantOK := Find(&q)
		got, ok := Find(p)
		if ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d: with Parent %v %+v, without %v %+v", i, ok, got, wantOK, want)
		}
	})
	if tried < 1000 {
		t.Fatalf("only %d graphs reach every node", tried)
	}
}

// reachableProblems calls f with those of n random problems whose nodes
// are all reachable from the start, their Parent set to the tree of the
// search from it, and returns how many there were.
func reachableProblems(r *rand.Rand, n int, f func(i int, p *Problem)) int {
	tried := 0
	for i := range n {
		p := randomProblem(r)
		s := newSearch(p)
		s.reach()
		if slices.Contains(s.seen, false) {
			continue
		}
		tried++
		p.Parent = s.parent
		f(i, p)
	}
	return tried
}

// An edge whose label stands for several events (Problem.Takes) takes
// each of them: a self-loop labelled 0 that takes events 0 and 1 is fair
// to a weakly fair event 1 enabled throughout, and not when the label is
// its one event.
func TestTakesSets(t *testing.T) {
	g := &Graph{Off: []int{0, 1, 2}, To: []int32{1, 0}, Event: []int32{0, 1}}
	p := &Problem{G: g, Enabled: func(int) []int32 { return []int32{2} }, Weak: []bool{false, false, true}, Starts: []int{0}}
	if _, ok := Find(p); ok {
		t.Fatal("a fair lasso where no edge takes event 2")
	}
	sets := [][]int32{{0}, {1, 2}}
	p.Takes = func(l int32) []int32 { return sets[l] }
	l, ok := Find(p)
	if !ok {
		t.Fatal("no fair lasso where edge 1 takes event 2")
	}
	if !slices.Contains(l.Cycle, 1) {
		t.Errorf("the cycle %v misses the edge that takes event 2", l.Cycle)
	}
	p.Weak, p.Strong = nil, []bool{false, false, true}
	if _, ok := Find(p); !ok {
		t.Error("no strongly fair lasso where edge 1 takes event 2")
	}
}

// chain is the graph 0 → 1 → … → n-1 by event 0, and its search tree.
func chain(n int) (*Graph, []int32) {
	g := &Graph{Off: make([]int, n+1), To: make([]int32, n-1), Event: make([]int32, n-1)}
	for v := range n - 1 {
		g.To[v] = int32(v + 1)
		g.Off[v+1] = v + 1
	}
	g.Off[n] = n - 1
	parent := make([]int32, n)
	for v := range parent {
		parent[v] = int32(v - 1)
	}
	return g, parent
}

// TestComponentsNotCopied checks that the components are judged as the
// SCC search completes them, not copied out first: on a chain of n
// single-node components the search allocates a fixed number of arrays,
// not one per component (issue 42 item 3).
func TestComponentsNotCopied(t *testing.T) {
	const n = 1 << 14
	g, parent := chain(n)
	p := &Problem{G: g, Starts: []int{0}, Parent: parent, Weak: []bool{true}, Enabled: func(int) []int32 { return nil }}
	allocs := testing.AllocsPerRun(3, func() {
		if _, ok := Find(p); ok {
			t.Fatal("a lasso in a chain")
		}
	})
	if allocs > n/64 {
		t.Errorf("%.0f allocations for %d components: they are copied", allocs, n)
	}
}

// counting is a Graph that counts the targets asked of it.
type counting struct {
	*Graph
	targets int
}

func (g *counting) Target(v int32, i int) int32 {
	g.targets++
	return g.Graph.Target(v, i)
}

// complete is the complete graph on n nodes (loops included), every edge
// by event 0.
func complete(n int) *Graph {
	g := &Graph{Off: make([]int, n+1)}
	for v := range n {
		for w := range n {
			g.To, g.Event = append(g.To, int32(w)), append(g.Event, 0)
		}
		g.Off[v+1] = len(g.To)
	}
	return g
}

// TestTakenReadsLabelsFirst checks that judging a component looks an
// edge's target up only when its label takes a fair event not yet seen
// inside: on a complete graph whose edges all take event 0, with weakly
// fair event 1 enabled everywhere and never taken (no fair cycle), the
// SCC search asks each target once and the judgement a handful more,
// not once per edge again (issue 42 item 3).
func TestTakenReadsLabelsFirst(t *testing.T) {
	const n = 64
	g := complete(n)
	c := &counting{Graph: g}
	both := []int32{0, 1}
	p := &Problem{G: c, Starts: []int{0}, Weak: []bool{true, true}, Enabled: func(int) []int32 { return both }}
	if _, ok := Find(p); ok {
		t.Fatal("a fair lasso where event 1 is never taken")
	}
	// reach asks every edge once, the SCC search once more
	if edges := len(g.To); c.targets > 2*edges+n {
		t.Errorf("%d targets asked for %d edges", c.targets, edges)
	}
}

// calls is a Graph that counts every question asked of it per edge or
// node.
type calls struct {
	*Graph
	n int
}

func (g *calls) Degree(v int32) int          { g.n++; return g.Graph.Degree(v) }
func (g *calls) Target(v int32, i int) int32 { g.n++; return g.Graph.Target(v, i) }
func (g *calls) Label(v int32, i int) int32  { g.n++; return g.Graph.Label(v, i) }
func (g *calls) Targets(v int32, i int, buf []int32) int {
	g.n++
	return g.Graph.Targets(v, i, buf)
}

// TestSCCSearchReadsTargetsInBatches checks that the SCC search asks a
// graph read on demand for a node's targets a batch at a time, not one
// call per edge: on a complete graph of 64 nodes (4096 edges) whose one
// component misses the acceptance set, the whole search asks a few calls
// per node. A call per edge, through the interface and decoding the node
// each time, was most of the LTL check's time on a product (issue 42
// item 3).
func TestSCCSearchReadsTargetsInBatches(t *testing.T) {
	const n = 64
	g := complete(n)
	parent := make([]int32, n)
	for v := range parent {
		parent[v] = int32(v - 1)
	}
	c := &calls{Graph: g}
	p := &Problem{G: c, Starts: []int{0}, Parent: parent, NAcc: 1, Acc: func(int32) uint64 { return 0 }}
	if _, ok := Find(p); ok {
		t.Fatal("an accepting lasso where no node is accepting")
	}
	if edges := len(g.To); c.n > edges/4 {
		t.Errorf("%d calls to the graph for %d edges", c.n, edges)
	}
}

// reversed is a Graph numbered from the other end, node v as key
// 2(n-1-v)+1: even keys are no node's, as in a product numbered by pairs
// some of which are not reached (Renumbering).
type reversed struct{ g *Graph }

func (r reversed) key(v int32) int32  { return 2*(int32(r.g.Len())-1-v) + 1 }
func (r reversed) node(k int32) int32 { return int32(r.g.Len()) - 1 - k/2 }
func (r reversed) Len() int           { return 2*r.g.Len() + 1 }
func (r reversed) Degree(k int32) int { return r.g.Degree(r.node(k)) }
func (r reversed) Targets(k int32, i int, buf []int32) int {
	n := r.g.Targets(r.node(k), i, buf)
	for j, w := range buf[:n] {
		if w >= 0 {
			buf[j] = r.key(w)
		}
	}
	return n
}

func renumbering(g *Graph) *Renumbering {
	r := reversed{g}
	return &Renumbering{G: r, Key: r.key, Node: r.node}
}

// TestRenumberedAgrees: the SCC search under other numbers (Problem.
// Renumbered) gives the lasso the search of G gives, on random graphs
// whose nodes are all reachable from the start.
func TestRenumberedAgrees(t *testing.T) {
	found := 0
	tried := reachableProblems(rand.New(rand.NewPCG(30, 1)), 20000, func(i int, p *Problem) {
		want, wantOK := Find(p)
		q := *p
		q.Renumbered = renumbering(p.G.(*Graph))
		got, ok := Find(&q)
		if ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Fatalf("graph %d: renumbered %v %+v, not %v %+v", i, ok, got, wantOK, want)
		}
		if ok {
			found++
		}
	})
	if tried < 1000 || found < 100 {
		t.Fatalf("only %d graphs reach every node, %d with a lasso", tried, found)
	}
}

// TestRenumberedSkipsTrivialComponents checks that a component of one
// node with no edge to itself is dismissed under the other numbers, by
// comparing its slots' keys with its own, without asking G for a target:
// a product's single-node components (a transient automaton state's)
// cost a look-up per slot otherwise (issue 42 item 3). A chain: every
// component is such a node.
func TestRenumberedSkipsTrivialComponents(t *testing.T) {
	const n = 64
	g, parent := chain(n)
	c := &counting{Graph: g}
	p := &Problem{G: c, Starts: []int{0}, Parent: parent, Renumbered: renumbering(g)}
	if l, ok := Find(p); ok {
		t.Fatalf("a lasso %+v in a chain", l)
	}
	if c.targets > 0 {
		t.Errorf("%d targets asked of G for %d single-node components", c.targets, n)
	}
}

// acyclicOrUnaccepting is a sound Problem.Cycles for p: false at the
// nodes of G's components that have no cycle or whose nodes together miss
// an acceptance set, where no accepting cycle can pass.
func acyclicOrUnaccepting(p *Problem) func(v int32) bool {
	g := p.G.(*Graph)
	comp := scc.Numbers(g.Off, g.To, nil)
	cyclic, acc := map[int32]bool{}, map[int32]uint64{}
	for v := range g.Len() {
		if p.Acc != nil {
			acc[comp[v]] |= p.Acc(int32(v))
		}
		for _, w := range g.To[g.Off[v]:g.Off[v+1]] {
			cyclic[comp[v]] = cyclic[comp[v]] || comp[w] == comp[v]
		}
	}
	all := allSets(p.NAcc)
	return func(v int32) bool { return cyclic[comp[v]] && acc[comp[v]]&all == all }
}

// TestCyclesAgrees: leaving out the nodes Problem.Cycles rules out gives
// the same answer, and a lasso that closes and is fair, on random graphs
// whose nodes are all reachable, searched under G's numbers and under
// other numbers (the first round of each reads only the nodes kept).
func TestCyclesAgrees(t *testing.T) {
	pruned := 0
	tried := reachableProblems(rand.New(rand.NewPCG(31, 1)), 20000, func(i int, p *Problem) {
		_, want := Find(p)
		q := *p
		q.Cycles = acyclicOrUnaccepting(p)
		for v := range p.G.Len() {
			if !q.Cycles(int32(v)) {
				pruned++
				break
			}
		}
		for _, renumber := range []bool{false, true} {
			if renumber {
				q.Renumbered = renumbering(p.G.(*Graph))
			}
			l, ok := Find(&q)
			if ok != want {
				t.Fatalf("graph %d (renumbered %v): with Cycles %v, without %v: %+v", i, renumber, ok, want, p.G)
			}
			if ok && !fairInfSet(p, l.Cycle) {
				t.Fatalf("graph %d (renumbered %v): cycle %+v is unfair", i, renumber, l)
			}
		}
	})
	if tried < 1000 || pruned < 500 {
		t.Fatalf("only %d graphs reach every node, %d with a node left out", tried, pruned)
	}
}

// asked records the nodes whose slots are read.
type asked struct {
	*Graph
	at map[int32]bool
}

func (g *asked) Target(v int32, i int) int32 {
	g.at[v] = true
	return g.Graph.Target(v, i)
}

func (g *asked) Targets(v int32, i int, buf []int32) int {
	g.at[v] = true
	return g.Graph.Targets(v, i, buf)
}

// TestCyclesAreNotSearched: the nodes Problem.Cycles rules out are not
// searched for components. Nodes 0–31 are a complete graph with no
// acceptance set, with an edge on to nodes 32–63, a complete graph in the
// acceptance set, but unfair: every edge takes event 0, and event 1, weakly
// fair, is enabled throughout. Without Cycles, the search reads nodes 0–31
// too (issue 42 item 3: a product's part in a transient automaton state
// was 80% of a response property's cycle search).
func TestCyclesAreNotSearched(t *testing.T) {
	g := complete(64)
	for k := range g.To {
		if v := int32(k / 64); (v < 32) != (g.To[k] < 32) && !(v == 31 && g.To[k] == 32) {
			g.To[k] = -1
		}
	}
	parent := make([]int32, 64) // breadth-first from 0: 0 reaches 1–31, 31 reaches 32, which reaches 33–63
	for v := range parent {
		switch {
		case v == 0:
			parent[v] = -1
		case v < 32:
			parent[v] = 0
		case v == 32:
			parent[v] = 31
		default:
			parent[v] = 32
		}
	}
	for _, cycles := range []bool{true, false} {
		a := &asked{Graph: g, at: map[int32]bool{}}
		p := &Problem{G: a, Starts: []int{0}, Parent: parent, NAcc: 1,
			Acc:     func(v int32) uint64 { return uint64(v>>5) & 1 },
			Weak:    []bool{false, true},
			Enabled: func(int) []int32 { return []int32{0, 1} }}
		if cycles {
			p.Cycles = func(v int32) bool { return v >= 32 }
		}
		if l, ok := Find(p); ok {
			t.Fatalf("Cycles %v: a fair lasso %+v, but event 1 is never taken", cycles, l)
		}
		for v := range int32(32) {
			if a.at[v] == cycles {
				t.Fatalf("Cycles %v: node %d read %v", cycles, v, a.at[v])
			}
		}
	}
}
