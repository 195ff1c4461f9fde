package fair

// components calls judge with each strongly connected component of the
// subgraph induced by set, in completion order; its argument is valid
// only during the call. The scratch arrays live in the search so each
// refinement round costs in proportion to its set.
func (s *search) components(set []int32, judge func(c []int32)) {
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
