package decide

import (
	"fmt"
	"slices"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/query"
)

func (s *search) valuation(id int) *valuation {
	n := &s.nodes[id]
	return &valuation{m: s.sc.m, loc: s.mc.Location(n.words[0]), words: n.words, frame: n.frame}
}

// add puts words at frame k (from parent through input in) unless the
// layer has it already, and returns its id, or -1 when the frame
// assumptions rule it out or the cap is reached.
func (s *search) add(layer map[string]int, words []int64, k, parent int, in []int) int {
	key := key(words)
	if id, ok := layer[key]; ok {
		return id
	}
	if s.max > 0 && len(s.nodes) >= s.max {
		s.capped = true
		return -1
	}
	// The clock is read every 1024 nodes: a node costs microseconds.
	if s.stopped == "" && !s.deadline.IsZero() && len(s.nodes)%1024 == 0 && time.Now().After(s.deadline) {
		s.stopped = "time share ran out: the search stopped at the deadline its caller gave it"
	}
	if s.stopped != "" {
		s.capped = true
		return -1
	}
	s.nodes = append(s.nodes, node{words: words, frame: k, parent: parent, in: in})
	id := len(s.nodes) - 1
	if !s.sc.frameOK(s.valuation(id)) {
		s.nodes = s.nodes[:id]
		layer[key] = -1
		return -1
	}
	// After the assumptions: a state they rule out is not one deeper.
	if s.maxDepth > 0 && k > s.maxDepth {
		s.nodes = s.nodes[:id]
		s.capped = true
		s.stopped = fmt.Sprintf("depth cap reached: the search stopped at a state deeper than %d", s.maxDepth)
		return -1
	}
	layer[key] = id
	s.layers[k] = append(s.layers[k], id)
	return id
}

// forward builds the layers of frames 0..N.
func (s *search) forward() {
	n := s.sc.q.Check.Bound
	s.layers = make([][]int, n+1)
	s.add(map[string]int{}, s.mc.Initial(make([]int64, s.mc.Width())), 0, -1, nil)
	for k := 0; k < n && !s.capped; k++ {
		layer := map[string]int{}
		for _, id := range s.layers[k] {
			for _, st := range s.successors(s.nodes[id].words) {
				in, ok := s.sc.input(k, st.in)
				if !ok {
					continue
				}
				switch loc := s.mc.Location(st.next[0]); loc.Kind {
				case explicit.Raised:
					if s.raise == "" {
						s.raise = fmt.Sprintf("a run raises a runtime error at step %d (%v) within the bound", k, loc.Err)
					}
					continue
				case explicit.Undecided:
					if s.stuck == "" {
						s.stuck = fmt.Sprintf("the search cannot go on at frame %d: %s", k+1, loc.Reason)
					}
					continue
				}
				if kid := s.add(layer, st.next, k+1, id, in); kid >= 0 {
					s.nodes[id].kids = append(s.nodes[id].kids, kid)
					s.cover(id, kid, in)
				}
			}
		}
	}
	s.backward()
}

// cover records the step from node id to node kid on input in when it
// takes the covered case.
func (s *search) cover(id, kid int, in []int) {
	if s.cases == nil {
		return
	}
	from, to := &s.nodes[id], &s.nodes[kid]
	label, err := s.cases.label(s.mc.Location(from.words[0]), from.words, in, s.mc.Location(to.words[0]), to.words, s.real)
	switch {
	case err != nil:
		if s.caseErr == "" {
			s.caseErr = fmt.Sprintf("which case the step from frame %d takes is not decided: %v", from.frame, err)
		}
	case label == s.sc.q.Check.CaseLabel:
		s.hits = append(s.hits, hit{from: id, to: kid, in: in})
	}
}

// backward marks the nodes from which a run goes on to frame N within
// the assumptions.
func (s *search) backward() {
	s.viable = make([]bool, len(s.nodes))
	n := len(s.layers) - 1
	for k := n; k >= 0; k-- {
		for _, id := range s.layers[k] {
			s.viable[id] = k == n || slices.ContainsFunc(s.nodes[id].kids, func(c int) bool { return s.viable[c] })
		}
	}
}

// decide reads the verdict off the layers.
func (s *search) decide() *Result {
	q := s.sc.q
	r := &Result{Kind: q.Check.Kind, Bound: q.Check.Bound, States: len(s.nodes), Diameter: s.diameter()}
	if q.Check.Kind == query.Cover {
		for _, h := range s.hits {
			if s.viable[h.to] {
				r.Outcome = "witness_found"
				s.pathVia(r, h)
				return r
			}
		}
	}
	if q.Check.Kind == query.MustReach && s.throughout(r, false) || q.Check.Kind == query.Response && s.responds(r) {
		r.Outcome = "property_violated"
		return r
	}
	if q.Check.Kind == query.ExistsAlways && s.throughout(r, true) {
		r.Outcome = "witness_found"
		return r
	}
	framed := q.Check.Kind == query.Reach || q.Check.Kind == query.Forbid || q.Check.Kind == query.Invariant
	for k := range s.layers {
		for _, id := range s.layers[k] {
			if framed && s.viable[id] && s.evidence(id) {
				r.Outcome = map[query.Kind]string{query.Reach: "witness_found"}[q.Check.Kind]
				if r.Outcome == "" {
					r.Outcome = "property_violated"
				}
				s.path(r, id)
				return r
			}
		}
	}
	feasible := len(s.layers[0]) > 0 && s.viable[s.layers[0][0]]
	switch {
	case s.capped:
		r.Outcome, r.Reason = "unknown", s.capReason("nodes; raise --max-states and re-run")
	case s.stuck != "":
		r.Outcome, r.Reason = "unknown", s.stuck
	case !feasible:
		r.Outcome = "scenario_infeasible"
		r.Reason = "the assumptions cannot all hold on a run of the bound"
	case s.open != "":
		// As bmc's tail: an open obligation is incomplete, raise or not.
		r.Outcome, r.Reason = "incomplete", s.open
	case s.raise != "":
		r.Outcome, r.Reason = "unknown", s.raise+"; no run that raises is evidence, so the property is not decided"
	case s.caseErr != "":
		r.Outcome, r.Reason = "unknown", s.caseErr
	case q.Check.Kind == query.Reach || q.Check.Kind == query.Cover || q.Check.Kind == query.ExistsAlways:
		r.Outcome = "no_witness"
	default:
		r.Outcome = "property_satisfied"
	}
	return r
}

// capReason says why a capped search stopped; what ends the state cap's
// sentence.
func (s *search) capReason(what string) string {
	if s.stopped != "" {
		return s.stopped
	}
	return fmt.Sprintf("state cap reached: the search stopped at --max-states %d %s", s.max, what)
}

// diameter is the largest frame of a node.
func (s *search) diameter() int {
	d := 0
	for i := range s.nodes {
		d = max(d, s.nodes[i].frame)
	}
	return d
}

// evidence reports whether node id is what the query looks for: a frame
// where the body holds (reach), holds or is undefined (forbid), fails or
// is undefined (invariant).
func (s *search) evidence(id int) bool {
	x, err := expr.Eval(s.sc.q.Check.Body, s.valuation(id))
	defined := err == nil
	switch s.sc.q.Check.Kind {
	case query.Reach:
		return defined && x.Bool()
	case query.Forbid:
		return !defined || x.Bool()
	}
	return !defined || !x.Bool()
}

// pathVia fills r's evidence with the run to h.from and h's step.
func (s *search) pathVia(r *Result, h hit) {
	s.path(r, h.from)
	names := s.mc.Events()
	var in []string
	for _, e := range h.in {
		in = append(in, names[e])
	}
	r.Steps = append(r.Steps, in)
	r.Frames = append(r.Frames, s.frame(h.to))
}

// path fills r's evidence with the run from frame 0 to node id.
func (s *search) path(r *Result, id int) {
	var ids []int
	for ; id >= 0; id = s.nodes[id].parent {
		ids = append(ids, id)
	}
	slices.Reverse(ids)
	names := s.mc.Events()
	for i, id := range ids {
		n := &s.nodes[id]
		if i > 0 {
			var in []string
			for _, e := range n.in {
				in = append(in, names[e])
			}
			r.Steps = append(r.Steps, in)
		}
		r.Frames = append(r.Frames, s.frame(id))
	}
}

// frame describes node id for the evidence.
func (s *search) frame(id int) Frame { return frameOf(s.sc.m, s.mc, s.nodes[id].words) }

// frameOf describes a state for the evidence.
func frameOf(m *model.Model, mc *explicit.Machine, words []int64) Frame {
	v := &valuation{m: m, loc: mc.Location(words[0]), words: words}
	f := Frame{State: v.loc.State, Started: v.loc.Started, Terminated: v.loc.Kind == explicit.Ended}
	for _, d := range m.Vars {
		x, _ := v.variable(d.Name)
		f.Vars = append(f.Vars, x)
	}
	return f
}
