package fair

// components returns the strongly connected components of the subgraph
// induced by set, in completion order. The scratch arrays live in the
// search so each refinement round costs in proportion to its set.
func (s *search) components(set []int32) [][]int32 {
	for _, v := range set {
		s.in[v] = true
	}
	var out [][]int32
	s.tarjan.FindInGraph(s.g, set, s.in, func(c []int32) {
		out = append(out, append([]int32(nil), c...))
	})
	for _, v := range set {
		s.in[v] = false
	}
	return out
}
