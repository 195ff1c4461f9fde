package decide

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/query"
)

// explore searches breadth-first with one node per state (frame is the
// breadth-first depth), every step under the assumptions of every step:
// the graph of --all-depths.
func (s *search) explore() {
	seen := map[string]int{}
	s.layers = [][]int{nil}
	s.add(seen, s.mc.Initial(make([]int64, s.mc.Width())), 0, -1, nil)
	for next := 0; next < len(s.nodes) && !s.capped; next++ {
		id := next
		for _, st := range s.successors(s.nodes[id].words) {
			in, ok := s.sc.input(0, st.in)
			if !ok {
				continue
			}
			switch loc := s.mc.Location(st.next[0]); loc.Kind {
			case explicit.Raised:
				if s.raise == "" {
					s.raise = fmt.Sprintf("a run raises a runtime error at step %d (%v)", s.nodes[id].frame, loc.Err)
				}
				continue
			case explicit.Undecided:
				if s.stuck == "" {
					s.stuck = fmt.Sprintf("the search cannot go on at frame %d: %s", s.nodes[id].frame+1, loc.Reason)
				}
				continue
			}
			k := s.nodes[id].frame + 1
			for len(s.layers) <= k {
				s.layers = append(s.layers, nil)
			}
			if kid := s.add(seen, st.next, k, id, in); kid >= 0 {
				s.nodes[id].kids = append(s.nodes[id].kids, kid)
				s.cover(id, kid, in)
			}
		}
	}
}

// decideAll reads the every-depth verdict off the graph. Evidence at
// frame k >= 1 is what bmc finds at bound k (the run ends there), so any
// reachable node counts; a verdict that needs the whole graph needs it
// finite and complete, free of raises, and runs of every length (a
// cycle within the assumptions), or bmc's answer changes with the bound.
func (s *search) decideAll() *Result {
	q := s.sc.q
	r := &Result{Kind: q.Check.Kind, Bound: q.Check.Bound, States: len(s.nodes), Diameter: s.diameter()}
	if q.Check.Kind == query.Cover && len(s.hits) > 0 {
		r.Outcome = "witness_found"
		s.pathVia(r, s.hits[0])
		return r
	}
	for id := range s.nodes {
		// A bound is at least 1: evidence at frame 0 needs one more step.
		if q.Check.Kind != query.Cover && s.evidence(id) && (id > 0 || len(s.nodes[0].kids) > 0) {
			r.Outcome = "property_violated"
			if q.Check.Kind == query.Reach {
				r.Outcome = "witness_found"
			}
			s.path(r, id)
			return r
		}
	}
	switch {
	case s.capped:
		r.Outcome, r.Reason = "unknown", s.capReason("states before the reachable space was exhausted; raise --max-states and re-run")
	case s.stuck != "":
		r.Outcome, r.Reason = "unknown", s.stuck
	case len(s.nodes) == 0:
		r.Outcome, r.Reason = "scenario_infeasible", "the assumptions rule out the initial state"
	case s.raise != "":
		r.Outcome, r.Reason = "unknown", s.raise+"; no run that raises is evidence, so the property is not decided"
	case s.caseErr != "":
		r.Outcome, r.Reason = "unknown", s.caseErr
	case !s.endless():
		r.Outcome, r.Reason = "scenario_infeasible", "every run within the assumptions stops: at a bound longer than the longest run the scenario is infeasible"
	case q.Check.Kind == query.Reach || q.Check.Kind == query.Cover:
		r.Outcome = "no_witness"
	default:
		r.Outcome = "property_satisfied"
	}
	return r
}

// endless reports whether some run goes on forever within the
// assumptions: whether peeling off the nodes without a successor left
// leaves any node (every node is reachable, so a cycle is).
func (s *search) endless() bool {
	out := make([]int, len(s.nodes))
	preds := make([][]int, len(s.nodes))
	for id := range s.nodes {
		out[id] = len(s.nodes[id].kids)
		for _, k := range s.nodes[id].kids {
			preds[k] = append(preds[k], id)
		}
	}
	var sinks []int
	for id, n := range out {
		if n == 0 {
			sinks = append(sinks, id)
		}
	}
	left := len(s.nodes)
	for len(sinks) > 0 {
		id := sinks[len(sinks)-1]
		sinks = sinks[:len(sinks)-1]
		left--
		for _, p := range preds[id] {
			if out[p]--; out[p] == 0 {
				sinks = append(sinks, p)
			}
		}
	}
	return left > 0
}
