package fair

// components calls judge with each strongly connected component of the
// subgraph induced by set, in completion order; its argument is valid
// only during the call. The scratch arrays live in the search so each
// refinement round costs in proportion to its set.
func (s *search) components(set []int32, judge func(c []int32)) {
	for _, v := range set {
		s.in[v] = true
	}
	s.tarjan.FindInGraph(s.g, set, s.in, judge)
	for _, v := range set {
		s.in[v] = false
	}
}
