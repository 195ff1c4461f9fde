package fair

import "slices"

// slot is edge i of node v; it is turned into the graph's EdgeID only in
// the Lasso returned.
type slot struct {
	v, i int32
}

// lasso builds the witness for an accepted component c: the BFS-tree
// prefix to its first node, then a cycle through every waypoint the
// fairness and acceptance conditions need.
func (s *search) lasso(c []int32) Lasso {
	for _, v := range c {
		s.member[v] = true
	}
	defer func() {
		for _, v := range c {
			s.member[v] = false
		}
	}()
	head := slices.Min(c)
	l := Lasso{Start: int(head)}
	for v := head; s.parent[v] >= 0; v = s.parent[v] {
		l.Prefix = append(l.Prefix, s.id(s.firstSlot(s.parent[v], v, false)))
		l.Start = int(s.parent[v])
	}
	slices.Reverse(l.Prefix)
	at := head
	for _, goal := range s.waypoints(c) {
		l.Cycle = append(l.Cycle, s.within(at, goal.node)...)
		at = goal.node
		if goal.edge.i >= 0 {
			l.Cycle = append(l.Cycle, s.id(goal.edge))
			at = s.g.Target(goal.edge.v, int(goal.edge.i))
		}
	}
	l.Cycle = append(l.Cycle, s.within(at, head)...)
	if len(l.Cycle) == 0 { // every waypoint is head itself: take a self-loop round
		e := s.firstSlot(head, -1, true)
		l.Cycle = append([]int{s.id(e)}, s.within(s.g.Target(e.v, int(e.i)), head)...)
	}
	return l
}

func (s *search) id(e slot) int { return s.g.EdgeID(e.v, int(e.i)) }

// firstSlot is v's first edge to w, or with internal its first edge into
// the component. The breadth-first search that set parent scanned the
// slots in this order, so this is the edge that first reached w.
func (s *search) firstSlot(v, w int32, internal bool) slot {
	for i, d := 0, s.g.Degree(v); i < d; i++ {
		if t := s.g.Target(v, i); t >= 0 && (t == w || internal && s.member[t]) {
			return slot{v, int32(i)}
		}
	}
	panic("fair: no edge where the search found one")
}

// waypoint is a node the cycle must visit, and the edge it must then take
// (i = -1: none).
type waypoint struct {
	node int32
	edge slot
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
	none := slot{-1, -1}
	for _, v := range sorted {
		for i, d := 0, s.g.Degree(v); i < d && fair; i++ {
			if w := s.g.Target(v, i); w < 0 || !s.member[w] {
				continue
			}
			// one waypoint for every new fair event the edge takes
			need := false
			for _, e := range s.takes(s.g.Label(v, i)) {
				if !taken[e] && (flag(s.p.Weak, e) || flag(s.p.Strong, e)) {
					taken[e], need = true, true
				}
			}
			if need {
				out = append(out, waypoint{v, slot{v, int32(i)}})
			}
		}
	}
	for e, w := range s.p.Weak {
		if !w || taken[int32(e)] {
			continue
		}
		for _, v := range sorted {
			if !slices.Contains(s.p.Enabled(int(v)), int32(e)) {
				out = append(out, waypoint{v, none})
				break
			}
		}
	}
	for a := 0; a < s.p.NAcc; a++ {
		for _, v := range sorted {
			if s.p.Acc(v)&(1<<uint(a)) != 0 {
				out = append(out, waypoint{v, none})
				break
			}
		}
	}
	return out
}

// within is a shortest path of internal edges from a to b (empty when
// a == b); the component is strongly connected, so one exists.
func (s *search) within(a, b int32) []int {
	if a == b {
		return nil
	}
	via := map[int32]slot{a: {-1, -1}}
	queue := []int32{a}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for i, d := 0, s.g.Degree(v); i < d; i++ {
			w := s.g.Target(v, i)
			if w < 0 || !s.member[w] {
				continue
			}
			if _, seen := via[w]; seen {
				continue
			}
			via[w] = slot{v, int32(i)}
			if w == b {
				var path []int
				for x := b; x != a; x = via[x].v {
					path = append(path, s.id(via[x]))
				}
				slices.Reverse(path)
				return path
			}
			queue = append(queue, w)
		}
	}
	panic("fair: component is not strongly connected")
}
