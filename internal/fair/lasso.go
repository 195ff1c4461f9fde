package fair

import "slices"

// lasso builds the witness for an accepted component c: the BFS-tree
// prefix to its first node, then a cycle through every waypoint the
// fairness and acceptance conditions need.
func (s *search) lasso(c []int32) Lasso {
	for _, v := range c {
		s.in[v] = true
	}
	defer func() {
		for _, v := range c {
			s.in[v] = false
		}
	}()
	head := slices.Min(c)
	l := Lasso{Start: int(head)}
	for v := head; s.parent[v] >= 0; {
		k := s.parent[v]
		l.Prefix = append(l.Prefix, int(k))
		v = s.source(int(k))
	}
	slices.Reverse(l.Prefix)
	if len(l.Prefix) > 0 {
		l.Start = int(s.source(l.Prefix[0]))
	}
	at := head
	for _, goal := range s.waypoints(c) {
		path := s.within(at, goal.node)
		l.Cycle = append(l.Cycle, path...)
		at = goal.node
		if goal.edge >= 0 {
			l.Cycle = append(l.Cycle, goal.edge)
			at = s.g.To[goal.edge]
		}
	}
	l.Cycle = append(l.Cycle, s.within(at, head)...)
	if len(l.Cycle) == 0 { // every waypoint is head itself: take a self-loop round
		k := s.internalFrom(head)
		l.Cycle = append([]int{k}, s.within(s.g.To[k], head)...)
	}
	return l
}

// waypoint is a node the cycle must visit, and the edge it must then take
// (-1: none).
type waypoint struct {
	node int32
	edge int
}

// waypoints lists, in a fixed order, one internal edge per fair event
// taken in c, one node per weakly fair event not taken where it is
// disabled, and one node per acceptance set.
func (s *search) waypoints(c []int32) []waypoint {
	sorted := slices.Clone(c)
	slices.Sort(sorted)
	var out []waypoint
	taken := map[int32]bool{}
	fair := s.p.Weak != nil || s.p.Strong != nil
	for _, v := range sorted {
		for k := s.g.Off[v]; k < s.g.Off[v+1]; k++ {
			e := s.g.Event[k]
			if w := s.g.To[k]; w >= 0 && s.in[w] && fair && !taken[e] && (flag(s.p.Weak, e) || flag(s.p.Strong, e)) {
				taken[e] = true
				out = append(out, waypoint{v, k})
			}
		}
	}
	for e, w := range s.p.Weak {
		if !w || taken[int32(e)] {
			continue
		}
		for _, v := range sorted {
			if !slices.Contains(s.p.Enabled(int(v)), int32(e)) {
				out = append(out, waypoint{v, -1})
				break
			}
		}
	}
	for a := 0; a < s.p.NAcc; a++ {
		for _, v := range sorted {
			if s.p.Acc[v]&(1<<uint(a)) != 0 {
				out = append(out, waypoint{v, -1})
				break
			}
		}
	}
	return out
}

// source is the node edge k leaves: the last node whose row starts at or
// before k (empty rows before it start at k too, but end there).
func (s *search) source(k int) int32 {
	lo, hi := 0, s.g.Len()-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if s.g.Off[mid] <= k {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return int32(lo)
}

func (s *search) internalFrom(v int32) int {
	for k := s.g.Off[v]; k < s.g.Off[v+1]; k++ {
		if w := s.g.To[k]; w >= 0 && s.in[w] {
			return k
		}
	}
	panic("fair: accepted component without an internal edge")
}

// within is a shortest path of internal edges from a to b (empty when
// a == b); the component is strongly connected, so one exists.
func (s *search) within(a, b int32) []int {
	if a == b {
		return nil
	}
	via := map[int32]int{a: -1}
	queue := []int32{a}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for k := s.g.Off[v]; k < s.g.Off[v+1]; k++ {
			w := s.g.To[k]
			if w < 0 || !s.in[w] {
				continue
			}
			if _, seen := via[w]; seen {
				continue
			}
			via[w] = k
			if w == b {
				var path []int
				for x := b; x != a; x = s.source(via[x]) {
					path = append(path, via[x])
				}
				slices.Reverse(path)
				return path
			}
			queue = append(queue, w)
		}
	}
	panic("fair: component is not strongly connected")
}
