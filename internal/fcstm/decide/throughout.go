package decide

import (
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
)

// throughout looks for a run of N steps within the assumptions on whose
// every frame the body is good (defined and true) when good is true, or
// never good when it is false: an exists_always witness (bmc's ∧_i G_i)
// or a must_reach counterexample (∧_i ¬G_i). A node keeps to it when its
// frame does and it is at frame N or has a successor that keeps to it;
// the run follows, from frame 0, the first such successor. It fills r's
// evidence and reports whether there is one.
func (s *search) throughout(r *Result, good bool) bool {
	n := len(s.layers) - 1
	avoid := make([]bool, len(s.nodes))
	for k := n; k >= 0; k-- {
		for _, id := range s.layers[k] {
			x, err := expr.Eval(s.sc.q.Check.Body, s.valuation(id))
			if (err == nil && x.Bool()) != good {
				continue
			}
			avoid[id] = k == n || slices.ContainsFunc(s.nodes[id].kids, func(c int) bool { return avoid[c] })
		}
	}
	if len(s.layers[0]) == 0 || !avoid[s.layers[0][0]] {
		return false
	}
	ids := []int{s.layers[0][0]}
	for len(ids) <= n {
		kids := s.nodes[ids[len(ids)-1]].kids
		ids = append(ids, kids[slices.IndexFunc(kids, func(c int) bool { return avoid[c] })])
	}
	s.walk(r, ids)
	return true
}

// walk fills r's evidence with the run through nodes ids, one per frame.
// A node's input is that of the step from its first parent, so each
// step's input is found again among the successors of its source.
func (s *search) walk(r *Result, ids []int) {
	names := s.mc.Events()
	for i, id := range ids {
		if i > 0 {
			from := &s.nodes[ids[i-1]]
			want := key(s.nodes[id].words)
			for _, st := range s.successors(from.words) {
				if in, ok := s.sc.input(from.frame, st.in); ok && key(st.next) == want {
					var evs []string
					for _, e := range in {
						evs = append(evs, names[e])
					}
					r.Steps = append(r.Steps, evs)
					break
				}
			}
		}
		r.Frames = append(r.Frames, s.frame(id))
	}
}
