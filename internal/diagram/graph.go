package diagram

import "strconv"

// Graph is a machine to draw. States form a tree: a state with Children is
// a composite drawn as a cluster around them. Edges connect states by ID;
// an edge whose From (To) is empty starts (ends) at the initial (final)
// marker of its Scope.
type Graph struct {
	Title  string
	States []*State // top level, in model order
	Edges  []Edge
}

// State is one node of the state tree.
type State struct {
	ID       string // unique in the graph (the JSON id, the FCSTM path)
	Label    string // what the picture shows; ID when empty
	Pseudo   bool   // an FCSTM pseudo state: passed through, never rested in
	Final    bool   // a terminal state: drawn with an edge to the final marker
	Actions  []string
	Children []*State
}

// Edge is one transition. Scope is the ID of the composite that owns it
// ("" for the top level); it places the initial and final markers of an
// edge with an empty end.
type Edge struct {
	Scope    string
	From, To string
	Event    string // the event alone ("" for none), which overlays match steps by
	Label    string // event, guard and effect, already formatted by the adapter
	Guard    string // the guard alone ("" for none), for a note when the label is long
	Forced   bool   // injected by an FCSTM forced transition
	Source   int    // the front end's index of the transition (JSON: transitions[i]); -1 for a marker edge
}

// label returns the text a state shows.
func (s *State) label() string {
	if s.Label != "" {
		return s.Label
	}
	return s.ID
}

// walk visits every state of the tree depth-first, parents first.
func (g *Graph) walk(visit func(s *State, depth int)) {
	var rec func(ss []*State, d int)
	rec = func(ss []*State, d int) {
		for _, s := range ss {
			visit(s, d)
			rec(s.Children, d+1)
		}
	}
	rec(g.States, 0)
}

// StateElementIDs gives every state a short generated identifier (s0, s1,
// …) in tree order: renderers use it instead of the user's id, which may
// hold any character, and the DOT and SVG output name the state's element
// with it (after the id prefix).
func (g *Graph) StateElementIDs() map[string]string {
	ids := map[string]string{}
	n := 0
	g.walk(func(s *State, _ int) {
		ids[s.ID] = "s" + itoa(n)
		n++
	})
	return ids
}

// byID returns the state with the given ID, or nil.
func (g *Graph) byID(id string) *State {
	var out *State
	g.walk(func(s *State, _ int) {
		if s.ID == id && out == nil {
			out = s
		}
	})
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// EdgesBySource maps each front-end transition index to the edge drawn for
// it, so a trace step (which names its transition by that index) finds its
// edge.
func (g *Graph) EdgesBySource() map[int]int {
	out := map[int]int{}
	for k, e := range g.Edges {
		if e.Source >= 0 {
			out[e.Source] = k
		}
	}
	return out
}
