package fair

// components returns the strongly connected components of the subgraph
// induced by set, by Tarjan's algorithm with an explicit call stack.
func (s *search) components(set []int32) [][]int32 {
	for _, v := range set {
		s.in[v] = true
	}
	if s.index == nil {
		n := s.g.Len()
		s.index, s.low, s.onStack = make([]int32, n), make([]int32, n), make([]bool, n)
	}
	index, low, onStack := s.index, s.low, s.onStack
	for _, v := range set {
		index[v] = -1
	}
	stack := make([]int32, 0, len(set))
	var out [][]int32
	type frame struct {
		v    int32
		edge int
	}
	call := make([]frame, 0, min(len(set), 1<<16))
	var next int32
	open := func(v int32) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		call = append(call, frame{v, s.g.Off[v]})
	}
	for _, root := range set {
		if index[root] >= 0 {
			continue
		}
		open(root)
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.edge < s.g.Off[v+1] {
				w := s.g.To[f.edge]
				f.edge++
				if w < 0 || !s.in[w] {
					continue
				}
				if index[w] < 0 {
					open(w)
				} else if onStack[w] {
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
				top := len(stack)
				for stack[top-1] != v {
					top--
				}
				top--
				c := append([]int32(nil), stack[top:]...)
				for _, w := range c {
					onStack[w] = false
				}
				stack = stack[:top]
				out = append(out, c)
			}
		}
	}
	for _, v := range set {
		s.in[v] = false
	}
	return out
}
