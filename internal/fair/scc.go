package fair

import "github.com/stateproof/stateproof/internal/scc"

// components calls judge with each strongly connected component of the
// subgraph induced by set, in completion order; its argument is valid
// only during the call. The scratch arrays live in the search so each
// refinement round costs in proportion to its set, but the first, whose
// set is most of the graph, reads the renumbered graph when there is one.
// set is not read after the call, and may be overwritten.
func (s *search) components(set []int32, first bool, judge func(c []int32)) {
	if r := s.p.Renumbered; first && r != nil {
		s.renumbered(r, set, judge)
		return
	}
	if s.whole(set) {
		s.tarjan.FindInGraph(s.g, nil, nil, judge)
		return
	}
	for _, v := range set {
		s.in[v] = true
	}
	s.tarjan.FindInGraph(s.g, set, s.in, judge)
	for _, v := range set {
		s.in[v] = false
	}
}

// whole reports whether set is every node in order (the first round when
// every node is reachable), which the SCC search then reads without a
// membership mask: the same roots in the same order.
func (s *search) whole(set []int32) bool {
	if len(set) != s.g.Len() {
		return false
	}
	for i, v := range set {
		if v != int32(i) {
			return false
		}
	}
	return true
}

// renumbered is components of set searched under r's numbers: the same
// roots in the same order, so the same components in the same order,
// each turned back into G's numbers for judge. Only the keys of set are
// roots, and the other keys count as searched already: a key of no node
// must never be searched, as a cycle there is no run of the product.
// set is overwritten with the keys: it is the first round's, most of the
// graph, and read no more.
func (s *search) renumbered(r *Renumbering, set []int32, judge func(c []int32)) {
	roots := set
	for i, v := range set {
		roots[i] = r.Key(v)
	}
	// the keys are turned back in place, as a copy of a component as
	// large as the graph would grow by append to about five times its size
	var buf [32]int32
	s.tarjan.FindAmong(r.G, roots, func(c []int32) {
		if len(c) == 1 && !loops(r.G, c[0], buf[:]) {
			return // no cycle: judge would look up every slot's target to see it
		}
		for i, k := range c {
			c[i] = r.Node(k)
		}
		judge(c)
	})
}

// loops reports whether an edge slot of v leads to v itself: a component
// of one node is a cycle only then. Under keys that is a comparison per
// slot, with no look-up of the target's node.
func loops(g scc.Graph, v int32, buf []int32) bool {
	for i, d := 0, g.Degree(v); i < d; {
		n := g.Targets(v, i, buf)
		for _, w := range buf[:n] {
			if w == v {
				return true
			}
		}
		i += n
	}
	return false
}
