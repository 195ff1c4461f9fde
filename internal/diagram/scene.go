package diagram

import "context"

// Sizes of the picture, in points.
const (
	stateFont    = 11.0
	clusterFont  = 12.0
	actionFont   = 9.0
	edgeFont     = 10.0
	titleFont    = 12.0
	stateLine    = 14.0
	clusterLine  = 15.0
	actionLine   = 11.0
	edgeLine     = 13.0
	boxPad       = 8.0  // text to box side
	clusterPad   = 10.0 // cluster border to its contents
	octagonCut   = 8.0  // how far the violating state's corners are cut
	initRadius   = 4.0
	finalRadius  = 6.5
	minStateW    = 44.0
	minStateH    = 30.0
	labelPadding = 4.0
)

type nodeKind int

const (
	stateNode nodeKind = iota
	initialNode
	finalNode
)

// sceneNode is a drawn box: a state, a composite (a cluster around its
// children) or a marker, in picture coordinates.
type sceneNode struct {
	kind       nodeKind
	state      *State // nil for a marker
	id         string // element id, before the prefix
	role       string
	composite  bool
	parent     int // the scene node of the enclosing composite; -1 at the top
	x, y, w, h float64
}

// sceneEdge is a drawn edge; from and to index scene.nodes.
type sceneEdge struct {
	id, class string
	label     string
	onPath    bool
	onCycle   bool // on a lasso's cycle
	forced    bool
	route     []point
	labelAt   point
	from, to  int
}

// scene is a laid out machine.
type scene struct {
	nodes []sceneNode
	edges []sceneEdge
	w, h  float64
}

// scopedEdge is an edge of the graph with its ends made consistent: its
// scope is a composite holding both ends (else the top level), and an end
// naming no state is the scope's marker.
type scopedEdge struct {
	k               int
	scope, from, to string
}

type sceneBuilder struct {
	r       *dotRenderer
	parent  map[string]string
	byScope map[string][]scopedEdge
}

func newSceneBuilder(r *dotRenderer) *sceneBuilder {
	b := &sceneBuilder{r: r, parent: map[string]string{}, byScope: map[string][]scopedEdge{}}
	var rec func(parent string, ss []*State)
	rec = func(parent string, ss []*State) {
		for _, s := range ss {
			if _, dup := b.parent[s.ID]; !dup {
				b.parent[s.ID] = parent
			}
			rec(s.ID, s.Children)
		}
	}
	rec("", r.g.States)
	for k, e := range r.g.Edges {
		se := scopedEdge{k: k, scope: e.Scope, from: e.From, to: e.To}
		if _, known := b.parent[se.from]; !known {
			se.from = ""
		}
		if _, known := b.parent[se.to]; !known {
			se.to = ""
		}
		if !r.composite[se.scope] || !b.within(se.from, se.scope) || !b.within(se.to, se.scope) {
			se.scope = ""
		}
		b.byScope[se.scope] = append(b.byScope[se.scope], se)
	}
	return b
}

// within reports whether state id is inside composite scope (no state,
// "", is inside every scope, and the top level, "", holds every state).
func (b *sceneBuilder) within(id, scope string) bool {
	if id == "" || scope == "" {
		return true
	}
	for p := b.parent[id]; p != ""; p = b.parent[p] {
		if p == scope {
			return true
		}
	}
	return false
}

// childOf is the box of the scope that holds state id.
func (b *sceneBuilder) childOf(id string, index map[string]int) int {
	for id != "" {
		if i, ok := index[id]; ok {
			return i
		}
		id = b.parent[id]
	}
	return 0
}

// scope lays out the states of one scope with their markers and edges;
// each composite among them is laid out first, inside its cluster.
func (b *sceneBuilder) scope(ctx context.Context, scope string, states []*State) (*scene, error) {
	r := b.r
	edges := b.byScope[scope]
	needFinal := false
	for _, s := range states {
		needFinal = needFinal || s.Final
	}
	for _, e := range edges {
		needFinal = needFinal || e.to == ""
	}
	nodes := []sceneNode{{kind: initialNode, id: r.marker("i", scope), parent: -1, w: 2 * initRadius, h: 2 * initRadius}}
	finalBox := -1
	if needFinal {
		finalBox = len(nodes)
		nodes = append(nodes, sceneNode{kind: finalNode, id: r.marker("f", scope), parent: -1, w: 2 * finalRadius, h: 2 * finalRadius})
	}
	index := map[string]int{}
	inner := map[int]*scene{}
	for _, s := range states {
		n, in, err := b.stateBox(ctx, s)
		if err != nil {
			return nil, err
		}
		if in != nil {
			inner[len(nodes)] = in
		}
		index[s.ID] = len(nodes)
		nodes = append(nodes, n)
	}
	var drawn []sceneEdge
	var ledges []ledge
	add := func(se sceneEdge) {
		le := ledge{from: se.from, to: se.to}
		if se.label != "" {
			le.labelW, le.labelH = textWidth(se.label, edgeFont)+labelPadding, edgeLine
		}
		drawn, ledges = append(drawn, se), append(ledges, le)
	}
	for _, e := range edges {
		from, to := 0, finalBox
		if e.from != "" {
			from = b.childOf(e.from, index)
		}
		if e.to != "" {
			to = b.childOf(e.to, index)
		}
		se := sceneEdge{id: "e" + itoa(e.k), from: from, to: to, forced: r.g.Edges[e.k].Forced}
		se.class, se.label, se.onPath = r.edgeText(e.k, r.g.Edges[e.k])
		se.onCycle = r.cycle[e.k]
		add(se)
	}
	for _, s := range states {
		if s.Final {
			add(sceneEdge{id: "fe_" + r.ids[s.ID], class: "marker", from: index[s.ID], to: finalBox})
		}
	}
	boxes := make([]lbox, len(nodes))
	for i, n := range nodes {
		boxes[i] = lbox{w: n.w, h: n.h, circle: n.kind != stateNode}
	}
	pl, err := layoutScope(ctx, boxes, ledges)
	if err != nil {
		return nil, err
	}
	out := &scene{w: pl.w, h: pl.h}
	at := make([]int, len(nodes)) // box -> scene node
	for i, n := range nodes {
		n.x, n.y = pl.boxes[i].x, pl.boxes[i].y
		n.w, n.h = pl.sizes[i].w, pl.sizes[i].h
		at[i] = len(out.nodes)
		out.nodes = append(out.nodes, n)
		if in := inner[i]; in != nil {
			_, hh := textBlock(n.state.label(), n.state.Actions, clusterFont, clusterLine)
			out.embed(in, at[i], n.x+(n.w-in.w)/2, n.y+clusterPad+hh+clusterPad/2)
		}
	}
	for k, se := range drawn {
		se.route, se.labelAt = pl.routes[k], pl.labels[k]
		se.from, se.to = at[se.from], at[se.to]
		out.edges = append(out.edges, se)
	}
	return out, nil
}

// stateBox is the box of state s, sized to its text, and for a composite
// the layout of its inside, which the box holds under its title.
func (b *sceneBuilder) stateBox(ctx context.Context, s *State) (sceneNode, *scene, error) {
	r := b.r
	n := sceneNode{state: s, id: r.ids[s.ID], role: r.ov.role(s.ID, r.visited), composite: len(s.Children) > 0, parent: -1}
	if !n.composite {
		n.w, n.h = textBlock(s.label(), s.Actions, stateFont, stateLine)
		n.w = max(n.w+2*boxPad, minStateW)
		n.h = max(n.h+2*boxPad-4, minStateH)
		if n.role == "violating" {
			n.w += 2 * octagonCut
		}
		return n, nil, nil
	}
	in, err := b.scope(ctx, s.ID, s.Children)
	if err != nil {
		return n, nil, err
	}
	hw, hh := textBlock(s.label(), s.Actions, clusterFont, clusterLine)
	n.w = max(in.w, hw) + 2*clusterPad
	n.h = clusterPad + hh + clusterPad/2 + in.h + clusterPad
	return n, in, nil
}

// embed adds the scene in, the inside of composite node parent, moved by
// (dx, dy).
func (s *scene) embed(in *scene, parent int, dx, dy float64) {
	base := len(s.nodes)
	for _, n := range in.nodes {
		n.x, n.y = n.x+dx, n.y+dy
		if n.parent < 0 {
			n.parent = parent
		} else {
			n.parent += base
		}
		s.nodes = append(s.nodes, n)
	}
	for _, e := range in.edges {
		e.route = moved(e.route, dx, dy)
		e.labelAt = point{e.labelAt.x + dx, e.labelAt.y + dy}
		e.from, e.to = e.from+base, e.to+base
		s.edges = append(s.edges, e)
	}
}

func moved(pts []point, dx, dy float64) []point {
	out := make([]point, len(pts))
	for i, p := range pts {
		out[i] = point{p.x + dx, p.y + dy}
	}
	return out
}

// textBlock is the size of a title line with action lines under it.
func textBlock(title string, actions []string, font, line float64) (w, h float64) {
	w, h = textWidth(oneLine(title), font), line
	for _, a := range actions {
		w = max(w, textWidth(oneLine(a), actionFont))
		h += actionLine
	}
	return w, h
}
