package ltl

import (
	"runtime"
	"slices"
	"testing"
)

// dense is a system of n nodes where every node has an edge to every
// node, each by one of k events (event of edge to w: w mod k), and atom
// b holds at the even nodes.
func denseSystem(n, k int) *System {
	sys := &System{Off: make([]int, n+1), NumEvents: k}
	for v := range n {
		for w := range n {
			sys.To, sys.Event = append(sys.To, int32(w)), append(sys.Event, int32(w%k))
		}
		sys.Off[v+1] = len(sys.To)
	}
	sys.EventIndex = func(string) int { return -1 }
	sys.Holds = func(a *Atom, v int) bool { return (v%2 == 0) == (a.Value == 1) == (a.Cmp == "==") }
	enabled := make([]int32, k)
	for e := range enabled {
		enabled[e] = int32(e)
	}
	sys.Enabled = func(int) []int32 { return enabled }
	sys.Weak = make([]bool, k)
	for e := range sys.Weak {
		sys.Weak[e] = true
	}
	return sys
}

// TestProductStoresNoEdges checks that deciding a response property under
// weak fairness allocates in proportion to the product's nodes, not to
// its edges: the product reads the system's edges instead of copying them
// (issue 42 item 3). The system has 512 edges per node; a product that
// stored 12 bytes per product edge would allocate over 6 KiB per node.
func TestProductStoresNoEdges(t *testing.T) {
	voc := &Vocabulary{Vars: map[string]bool{"b": true}}
	prop := compiled(t, "G (!b -> F b)", voc)
	sys := denseSystem(512, 4)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := prop.Check(sys, 1<<20)
	runtime.ReadMemStats(&after)
	if err != nil || !res.Holds || res.Capped {
		t.Fatalf("Check: %+v, %v; want the property to hold", res, err)
	}
	perNode := float64(after.TotalAlloc-before.TotalAlloc) / float64(res.ProductNodes)
	if perNode > 1024 {
		t.Errorf("%.0f bytes allocated per product node (%d nodes, %d system edges): the product copies edges", perNode, res.ProductNodes, len(sys.To))
	}
	t.Logf("%.0f bytes per product node, %d product nodes", perNode, res.ProductNodes)
}

// cubeSystem is the hypercube of k bits: node v's edge i flips bit i by
// event i, every event is enabled everywhere and weakly fair, and atom b
// holds where bit 0 is set (gen toggles k as a System).
func cubeSystem(k int) *System {
	n := 1 << k
	sys := &System{Off: make([]int, n+1), NumEvents: k}
	for v := range n {
		for i := range k {
			sys.To, sys.Event = append(sys.To, int32(v^1<<i)), append(sys.Event, int32(i))
		}
		sys.Off[v+1] = len(sys.To)
	}
	sys.EventIndex = func(string) int { return -1 }
	sys.Holds = func(a *Atom, v int) bool { return (v&1 == 1) == (a.Value == 1) == (a.Cmp == "==") }
	enabled := make([]int32, k)
	sys.Weak = make([]bool, k)
	for e := range enabled {
		enabled[e], sys.Weak[e] = int32(e), true
	}
	sys.Enabled = func(int) []int32 { return enabled }
	return sys
}

// compiled parses and compiles a formula over voc, failing the test on an
// error.
func compiled(t *testing.T, src string, voc *Vocabulary) *Property {
	t.Helper()
	f, err := Parse(src, voc)
	if err != nil {
		t.Fatal(err)
	}
	prop, err := Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	return prop
}

// deadEnd removes every edge of node v, whose runs then stutter there.
func deadEnd(sys *System, v int) {
	lo, hi := sys.Off[v], sys.Off[v+1]
	for u := v + 1; u < len(sys.Off); u++ {
		sys.Off[u] -= hi - lo
	}
	sys.To = append(sys.To[:lo], sys.To[hi:]...)
	sys.Event = append(sys.Event[:lo], sys.Event[hi:]...)
}

// TestProductBytesPerNode checks what deciding a response property under
// weak fairness allocates per product node on a graph whose search goes
// as deep as the product is large: three int32 per product node (its
// automaton state, runtime and breadth-first parent; no edge, no
// acceptance word) grown by doubling, and the SCC search's arrays and
// stacks (issue 42 item 3, docs/liveness.md#performance). Under 100 bytes
// a node; storing the parent's edge and the acceptance word too, and
// growing the arrays and stacks by append, allocated about 180.
func TestProductBytesPerNode(t *testing.T) {
	voc := &Vocabulary{Vars: map[string]bool{"b": true}}
	prop := compiled(t, "G (!b -> F b)", voc)
	sys := cubeSystem(14)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := prop.Check(sys, 1<<20)
	runtime.ReadMemStats(&after)
	if err != nil || !res.Holds || res.Capped {
		t.Fatalf("Check: %+v, %v; want the property to hold", res, err)
	}
	perNode := float64(after.TotalAlloc-before.TotalAlloc) / float64(res.ProductNodes)
	if perNode > 100 {
		t.Errorf("%.0f bytes allocated per product node (%d nodes)", perNode, res.ProductNodes)
	}
	t.Logf("%.0f bytes per product node, %d product nodes", perNode, res.ProductNodes)
}

// TestTargetsAgreeWithTarget checks that the product's batched targets
// (what the SCC search reads) are its targets one slot at a time, from
// every slot, in batches of every size: on a hypercube with dead ends,
// with a formula whose atoms read the node only (decoded a batch at a
// time) and one that reads the last event, indexed densely and by map.
func TestTargetsAgreeWithTarget(t *testing.T) {
	voc := &Vocabulary{Vars: map[string]bool{"b": true}, Events: map[string]bool{"e1": true}}
	for _, src := range []string{"G (!b -> F b)", "G (!b -> X (b || F @e1))"} {
		prop := compiled(t, src, voc)
		sys := cubeSystem(5)
		sys.EventIndex = func(name string) int { return map[string]int{"e1": 1}[name] }
		deadEnd(sys, 3) // dead ends: a stutter step
		deadEnd(sys, 17)
		for _, byMap := range []bool{false, true} {
			p := newProduct(prop.a, sys)
			if byMap {
				p.dense, p.index = nil, map[int64]int32{}
			}
			if !p.build(1 << 20) {
				t.Fatal("capped")
			}
			buf := make([]int32, 40)
			for x := int32(0); int(x) < p.Len(); x++ {
				d := p.Degree(x)
				for i := 0; i < d; i++ {
					for size := 1; size <= len(buf); size += 7 {
						n := p.Targets(x, i, buf[:size])
						if n != min(size, d-i) {
							t.Fatalf("%s: node %d slot %d: %d targets in a batch of %d, degree %d", src, x, i, n, size, d)
						}
						for j, w := range buf[:n] {
							if want := p.Target(x, i+j); w != want {
								t.Fatalf("%s: node %d slot %d: batch says %d, Target %d", src, x, i+j, w, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestKeyedAgreesWithProduct checks the product numbered by its index's
// keys, which the SCC search reads instead of the product (issue 42
// item 3): from every node's key, every slot in batches of every size
// leads to the key of the product's target for that slot, or, where the
// product has none, to a number of no product node. With an atom reading
// the last event a key's pair may fit on one edge and not on another, so
// that product is not renumbered.
func TestKeyedAgreesWithProduct(t *testing.T) {
	voc := &Vocabulary{Vars: map[string]bool{"b": true}, Events: map[string]bool{"e1": true}}
	for _, src := range []string{"G (!b -> F b)", "G (!b -> X (b || F @e1))"} {
		prop := compiled(t, src, voc)
		sys := cubeSystem(5)
		sys.EventIndex = func(name string) int { return map[string]int{"e1": 1}[name] }
		deadEnd(sys, 3) // a stutter step
		p := newProduct(prop.a, sys)
		if !p.build(1 << 20) {
			t.Fatal("capped")
		}
		r := p.renumbering()
		if r == nil {
			if p.eventFree {
				t.Fatalf("%s: no renumbering of an event-free product", src)
			}
			continue
		}
		if !p.eventFree {
			t.Fatalf("%s: a product whose atoms read the event renumbered", src)
		}
		buf := make([]int32, 40)
		for x := int32(0); int(x) < p.Len(); x++ {
			k := r.Key(x)
			if r.Node(k) != x {
				t.Fatalf("%s: node %d has key %d, which is node %d's", src, x, k, r.Node(k))
			}
			d := p.Degree(x)
			if kd := r.G.Degree(k); kd != d {
				t.Fatalf("%s: node %d: degree %d, %d by its key", src, x, d, kd)
			}
			for i := 0; i < d; i++ {
				for size := 1; size <= len(buf); size += 7 {
					n := r.G.Targets(k, i, buf[:size])
					if n != min(size, d-i) {
						t.Fatalf("%s: key %d slot %d: %d targets in a batch of %d, degree %d", src, k, i, n, size, d)
					}
					for j, w := range buf[:n] {
						got := int32(-1)
						if w >= 0 && int(w) < r.G.Len() {
							got = r.Node(w)
						}
						if want := p.Target(x, i+j); got != want {
							t.Fatalf("%s: node %d slot %d: key %d is node %d, Target %d", src, x, i+j, w, got, want)
						}
					}
				}
			}
		}
	}
}

// TestUnreachedPairsAreNotSearched checks that the search by keys starts
// only from product nodes: a system node no run reaches, where b is
// false forever on a fair cycle, makes pairs that fit and form an
// accepting fair cycle of !(G (!b -> F b)), but no run passes them, so
// the property holds. Every key of the dense index a root would search
// them (and find a component of no product node).
func TestUnreachedPairsAreNotSearched(t *testing.T) {
	voc := &Vocabulary{Vars: map[string]bool{"b": true}}
	prop := compiled(t, "G (!b -> F b)", voc)
	sys := cubeSystem(4)
	// node 16: b false (bit 0 clear), its one edge a loop by event 4,
	// the only event it enables, weakly fair; no edge leads to it
	sys.To, sys.Event = append(sys.To, 16), append(sys.Event, 4)
	sys.Off = append(sys.Off, len(sys.To))
	sys.NumEvents, sys.Weak = 5, append(sys.Weak, true)
	cube := sys.Enabled
	sys.Enabled = func(v int) []int32 {
		if v == 16 {
			return []int32{4}
		}
		return cube(v)
	}
	p := newProduct(prop.a, sys)
	if !p.build(1<<20) || p.renumbering() == nil {
		t.Fatal("the product is not searched by keys")
	}
	res, err := prop.Check(sys, 1<<20)
	if err != nil || !res.Holds || res.Capped {
		t.Fatalf("Check: %+v, %v; want the property to hold", res, err)
	}
	sys.Init = 16
	if res, err := prop.Check(sys, 1<<20); err != nil || res.Holds {
		t.Fatalf("from node 16, Check: %+v, %v; want a violation", res, err)
	}
}

// TestBuildByKeysAgrees checks the build's step by keys (expandKeys)
// against its step slot by slot, which it skips for a product with a
// dense index and no atom reading the last event: the same product
// nodes, numbered in the same breadth-first order with the same parents,
// on a hypercube with a dead end and an unexpanded node, and the same
// cap.
func TestBuildByKeysAgrees(t *testing.T) {
	voc := &Vocabulary{Vars: map[string]bool{"b": true}}
	for _, src := range []string{"G (!b -> F b)", "G F b", "F G b || G (b -> X !b)"} {
		prop := compiled(t, src, voc)
		sys := cubeSystem(6)
		deadEnd(sys, 3) // a stutter step
		sys.Unexpanded = func(v int) bool { return v == 40 }
		for _, limit := range []int{1 << 20, 50} {
			keyed, slots := newProduct(prop.a, sys), newProduct(prop.a, sys)
			slots.eventFree = false // the slot by slot step
			okK, okS := keyed.build(limit), slots.build(limit)
			if okK != okS || !slices.Equal(keyed.state, slots.state) || !slices.Equal(keyed.node, slots.node) ||
				!slices.Equal(keyed.parent, slots.parent) || !slices.Equal(keyed.starts, slots.starts) {
				t.Fatalf("%s, cap %d: by keys %v %d nodes, slot by slot %v %d nodes", src, limit, okK, len(keyed.node), okS, len(slots.node))
			}
		}
	}
}
