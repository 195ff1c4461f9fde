package diagram

import (
	"fmt"
	"html"
	"strings"
)

// Colours of the overlay. They differ in lightness as well as hue (the
// Okabe–Ito blue and a ColorBrewer orange scale) and every role also has a
// line style, so nothing depends on telling red from green.
const (
	colourPath      = "#0072b2"
	colourVisited   = "#deebf7"
	colourHighlight = "#fee6ce"
	colourViolating = "#fdae6b"
	colourStrong    = "#7f2704"
)

// DOT renders g as Graphviz source, with ov drawn on it when ov is not
// nil. Every state, marker and edge carries an id attribute (states s0…,
// edges e0… by their index in g.Edges, after idPrefix), which the SVG
// output keeps, so a page holding several pictures can find them.
func DOT(g *Graph, ov *Overlay, idPrefix string) string {
	r := newRenderer(g, ov, idPrefix)
	var b strings.Builder
	b.WriteString("digraph machine {\n")
	title := ""
	if g.Title != "" {
		// Graphviz 2.40 refuses an empty HTML label.
		title = ", label=" + htmlLabel(g.Title, nil) + ", labelloc=t"
	}
	fmt.Fprintf(&b, "  graph [rankdir=LR, compound=true, fontname=\"Helvetica,Arial,sans-serif\", fontsize=12%s];\n", title)
	b.WriteString("  node [shape=box, style=\"rounded\", fontname=\"Helvetica,Arial,sans-serif\", fontsize=11];\n")
	b.WriteString("  edge [fontname=\"Helvetica,Arial,sans-serif\", fontsize=10];\n")
	r.scope(&b, "", g.States, 1)
	for k, e := range g.Edges {
		r.edge(&b, k, e)
	}
	if ov != nil && len(ov.Frames) > 0 {
		fmt.Fprintf(&b, "  { rank=sink; values [id=\"%svalues\", shape=plaintext, label=%s]; }\n", idPrefix, valuesTable(ov))
	}
	b.WriteString("}\n")
	return b.String()
}

// newRenderer prepares what the DOT and SVG renderers share: element ids,
// the overlay's step numbers and visited states, and the composites.
func newRenderer(g *Graph, ov *Overlay, idPrefix string) *dotRenderer {
	r := &dotRenderer{g: g, ov: ov, ids: g.StateElementIDs(), nums: ov.stepNumbers(), cycle: ov.cycleEdges(), visited: ov.visited(), composite: map[string]bool{}, prefix: idPrefix}
	g.walk(func(s *State, _ int) {
		if len(s.Children) > 0 {
			r.composite[s.ID] = true
		}
	})
	return r
}

type dotRenderer struct {
	g         *Graph
	ov        *Overlay
	ids       map[string]string
	nums      map[int][]int
	cycle     map[int]bool // edges on a lasso's cycle
	visited   map[string]bool
	composite map[string]bool
	prefix    string
}

// marker names the initial ("i") or final ("f") marker of a scope.
func (r *dotRenderer) marker(kind, scope string) string {
	if scope == "" {
		return kind + "_top"
	}
	return kind + "_" + r.ids[scope]
}

func (r *dotRenderer) scope(b *strings.Builder, scope string, states []*State, depth int) {
	ind := strings.Repeat("  ", depth)
	init := r.marker("i", scope)
	fmt.Fprintf(b, "%s%s [id=%q, shape=point, width=0.15, label=\"\"];\n", ind, init, r.prefix+init)
	if r.needsFinal(scope, states) {
		fin := r.marker("f", scope)
		fmt.Fprintf(b, "%s%s [id=%q, shape=point, peripheries=2, width=0.14, label=\"\"];\n", ind, fin, r.prefix+fin)
	}
	for _, s := range states {
		id := r.ids[s.ID]
		role := r.ov.role(s.ID, r.visited)
		if len(s.Children) > 0 {
			fmt.Fprintf(b, "%ssubgraph cluster_%s {\n", ind, id)
			fmt.Fprintf(b, "%s  id=%q; class=%q; label=%s; style=%q; color=\"#555555\"; penwidth=%s; fillcolor=%q;\n",
				ind, r.prefix+id, strings.TrimSpace("state "+role), htmlLabel(s.label(), s.Actions), clusterStyle(role, s.Pseudo), penwidth(role), fill(role))
			r.scope(b, s.ID, s.Children, depth+1)
			fmt.Fprintf(b, "%s}\n", ind)
			continue
		}
		shape := "box"
		if role == "violating" {
			shape = "octagon"
		}
		fmt.Fprintf(b, "%s%s [id=%q, class=%q, label=%s, shape=%s, style=%q, color=%q, fillcolor=%q, penwidth=%s];\n",
			ind, id, r.prefix+id, strings.TrimSpace("state "+role), htmlLabel(s.label(), s.Actions), shape, nodeStyle(role, s.Pseudo), border(role), fill(role), penwidth(role))
	}
	for _, s := range states {
		if s.Final {
			fmt.Fprintf(b, "%s%s -> %s [id=%q, class=\"marker\"];\n", ind, r.anchor(s.ID), r.marker("f", scope), r.prefix+"fe_"+r.ids[s.ID])
		}
	}
}

func (r *dotRenderer) needsFinal(scope string, states []*State) bool {
	for _, s := range states {
		if s.Final {
			return true
		}
	}
	for _, e := range r.g.Edges {
		if e.Scope == scope && e.To == "" {
			return true
		}
	}
	return false
}

// anchor is the node an edge to or from state id attaches to: the state
// itself, or for a composite its initial marker (the edge is then clipped
// at the cluster border).
func (r *dotRenderer) anchor(id string) string {
	if r.composite[id] {
		return r.marker("i", id)
	}
	return r.ids[id]
}

func (r *dotRenderer) edge(b *strings.Builder, k int, e Edge) {
	from, to := r.marker("i", e.Scope), r.marker("f", e.Scope)
	var attrs []string
	if e.From != "" {
		from = r.anchor(e.From)
		if r.composite[e.From] {
			attrs = append(attrs, "ltail=cluster_"+r.ids[e.From])
		}
	}
	if e.To != "" {
		to = r.anchor(e.To)
		if r.composite[e.To] {
			attrs = append(attrs, "lhead=cluster_"+r.ids[e.To])
		}
	}
	class, label, onPath := r.edgeText(k, e)
	switch {
	case r.cycle[k]: // a lasso's cycle: darker, heavier and bold, not only another hue
		attrs = append(attrs, "color=\""+colourStrong+"\"", "fontcolor=\""+colourStrong+"\"", "penwidth=3.5")
	case onPath:
		attrs = append(attrs, "color=\""+colourPath+"\"", "fontcolor=\""+colourPath+"\"", "penwidth=2.5")
	}
	if e.Forced {
		attrs = append(attrs, "style=dashed")
	}
	attrs = append(attrs, fmt.Sprintf("id=\"%se%d\"", r.prefix, k), fmt.Sprintf("class=%q", class))
	if label != "" {
		attrs = append(attrs, "label="+htmlLabel(label, nil))
	}
	fmt.Fprintf(b, "  %s -> %s [%s];\n", from, to, strings.Join(attrs, ", "))
}

// edgeText is the class of edge k's element, the label it shows (with the
// numbers of the overlay steps that took it) and whether a step took it.
func (r *dotRenderer) edgeText(k int, e Edge) (class, label string, onPath bool) {
	class, label = "transition", e.Label
	if ns := r.nums[k]; len(ns) > 0 {
		class += " path"
		label = r.ov.numbersText(ns) + ": " + label
		onPath = true
	}
	if r.cycle[k] {
		class += " cycle"
	}
	if e.Source < 0 {
		class = "marker"
	}
	return class, label, onPath
}

// htmlLabel is a Graphviz HTML-like label: the title line, then one line
// per extra entry, each escaped by dotText.
func htmlLabel(title string, lines []string) string {
	var b strings.Builder
	b.WriteString("<")
	b.WriteString(dotText(title))
	for _, l := range lines {
		b.WriteString("<BR/><FONT POINT-SIZE=\"9\">")
		b.WriteString(dotText(l))
		b.WriteString("</FONT>")
	}
	b.WriteString(">")
	return b.String()
}

// dotText makes user text literal in an HTML-like label: markup
// characters become entities, and every backslash is doubled, because
// Graphviz reads escapes (a backslash and N is the node's name, with G the
// graph's) even in HTML labels, after decoding entities, and reads two
// backslashes as one.
func dotText(s string) string {
	return strings.ReplaceAll(html.EscapeString(oneLine(s)), `\`, `\\`)
}

func nodeStyle(role string, pseudo bool) string {
	s := "rounded"
	if role != "" {
		s += ",filled"
	}
	if role == "highlight" || pseudo {
		s += ",dashed"
	}
	if role == "violating" {
		s = "filled,bold"
	}
	return s
}

func clusterStyle(role string, pseudo bool) string {
	s := "rounded"
	if role != "" {
		s += ",filled"
	}
	if role == "highlight" || pseudo {
		s += ",dashed"
	}
	return s
}

func fill(role string) string {
	switch role {
	case "visited":
		return colourVisited
	case "highlight":
		return colourHighlight
	case "violating":
		return colourViolating
	}
	return "white"
}

func border(role string) string {
	if role == "violating" {
		return colourStrong
	}
	return "#333333"
}

func penwidth(role string) string {
	switch role {
	case "violating":
		return "3"
	case "highlight":
		return "2"
	}
	return "1"
}

// valuesTable is the overlay's frames as a Graphviz HTML table: one row per
// frame with the step that led to it, the state and every variable.
func valuesTable(ov *Overlay) string {
	var b strings.Builder
	b.WriteString("<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"3\">")
	b.WriteString("<TR><TD><B>step</B></TD><TD><B>event</B></TD><TD><B>state</B></TD>")
	for _, v := range ov.Vars {
		b.WriteString("<TD><B>" + dotText(v) + "</B></TD>")
	}
	b.WriteString("</TR>")
	for i, f := range ov.Frames {
		step, event := "start", ""
		if i > 0 && i-1 < len(ov.Steps) {
			step, event = ov.numbersText([]int{i}), ov.Steps[i-1].Event
		}
		b.WriteString("<TR><TD>" + step + "</TD><TD>" + dotText(event) + "</TD><TD>" + dotText(f.State) + "</TD>")
		for _, v := range f.Values {
			b.WriteString("<TD>" + dotText(v) + "</TD>")
		}
		b.WriteString("</TR>")
	}
	b.WriteString("</TABLE>>")
	return b.String()
}
