package diagram

import (
	"slices"
	"strings"
)

// Overlay is evidence drawn on a Graph: a walk through the machine (a
// finding's path, a bounded witness or counterexample), the state where
// the property fails, and states to highlight (a closed cycle, a dead end).
type Overlay struct {
	Title     string
	Steps     []Step
	Violating string   // state ID where the property fails; "" for none
	Highlight []string // state IDs to mark (closed cycle, deadlock, unreachable)
	// HighlightNote says what the highlighted states are ("closed cycle").
	HighlightNote string
	// Vars names the variables of Frames, in declaration order.
	Vars []string
	// Frames are the values at each frame: Frames[0] before the first
	// step, Frames[i+1] after Steps[i]. Empty when the path could not be
	// replayed; then only the walk is drawn.
	Frames []Frame
	// FramesNote says why Frames is empty or partial ("" when complete).
	FramesNote string
	// Cycle is the 1-based number of the first step of a lasso's cycle:
	// steps before it are taken once, steps from it on repeat forever.
	// 0: the walk is no lasso.
	Cycle int
}

// CycleText says how a lasso's steps repeat ("" when the walk is none).
func (o *Overlay) CycleText() string {
	if o == nil || o.Cycle == 0 {
		return ""
	}
	if o.Cycle == len(o.Steps) {
		return "lasso: step " + itoa(o.Cycle) + " (↻) repeats forever"
	}
	return "lasso: steps " + itoa(o.Cycle) + "–" + itoa(len(o.Steps)) + " (↻) repeat forever"
}

// inCycle reports whether step number n (from 1) is on a lasso's cycle.
func (o *Overlay) inCycle(n int) bool { return o != nil && o.Cycle > 0 && n >= o.Cycle }

// cycleEdges reports the edges a lasso's cycle takes.
func (o *Overlay) cycleEdges() map[int]bool {
	out := map[int]bool{}
	if o == nil {
		return out
	}
	for i, s := range o.Steps {
		if o.inCycle(i + 1) {
			for _, e := range s.Edges {
				out[e] = true
			}
		}
	}
	return out
}

// Step is one step of an overlay walk. Edges lists the indexes (into
// Graph.Edges) of the transitions that can have been taken: one when the
// step was replayed, possibly several (guarded branches with the same
// source, event and target) when it was matched by name only, none for a
// stutter or a step the graph has no edge for.
type Step struct {
	From, Event, To string
	Edges           []int
}

// Frame is the visible state at one frame: the state and each variable's
// value as text, in the order of Overlay.Vars.
type Frame struct {
	State  string
	Values []string
}

// MatchSteps builds overlay steps from (from, event, to) triples by
// looking the transitions up in g by source, event and target.
func MatchSteps(g *Graph, path [][3]string) []Step {
	out := make([]Step, len(path))
	for i, p := range path {
		out[i] = Step{From: p[0], Event: p[1], To: p[2]}
		for k, e := range g.Edges {
			if e.From == p[0] && e.Event == p[1] && e.To == p[2] && e.Source >= 0 {
				out[i].Edges = append(out[i].Edges, k)
			}
		}
	}
	return out
}

// stepNumbers maps each edge index to the 1-based numbers of the steps
// that took it, in order.
func (o *Overlay) stepNumbers() map[int][]int {
	out := map[int][]int{}
	if o == nil {
		return out
	}
	for i, s := range o.Steps {
		for _, e := range s.Edges {
			out[e] = append(out[e], i+1)
		}
	}
	return out
}

// visited reports the states a walk passes through.
func (o *Overlay) visited() map[string]bool {
	out := map[string]bool{}
	if o == nil {
		return out
	}
	for _, s := range o.Steps {
		out[s.From], out[s.To] = true, true
	}
	return out
}

// role is the overlay role of a state: "violating", "highlight", "visited"
// or "".
func (o *Overlay) role(id string, visited map[string]bool) string {
	switch {
	case o == nil:
		return ""
	case id == o.Violating && id != "":
		return "violating"
	case slices.Contains(o.Highlight, id):
		return "highlight"
	case visited[id]:
		return "visited"
	}
	return ""
}

// numbersText renders step numbers as "1, 3", a number on a lasso's
// cycle marked "3↻".
func (o *Overlay) numbersText(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = itoa(n)
		if o.inCycle(n) {
			parts[i] += "↻"
		}
	}
	return strings.Join(parts, ", ")
}
