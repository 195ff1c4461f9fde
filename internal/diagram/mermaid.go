package diagram

import (
	"fmt"
	"strings"

	"github.com/mattn/go-runewidth"
)

// maxEdgeLabel is the widest edge label (in display columns) Mermaid gets
// inline; a longer guard moves into a note on the source state, and the
// edge shows a reference to it.
const maxEdgeLabel = 48

// Mermaid renders g as a Mermaid stateDiagram-v2, with ov drawn on it when
// ov is not nil: visited edges numbered in step order, and the violating,
// highlighted and visited states in classes of their own.
func Mermaid(g *Graph, ov *Overlay) string {
	r := mermaidRenderer{g: g, ov: ov, ids: g.StateElementIDs(), nums: ov.stepNumbers(), visited: ov.visited(), notes: map[string][]string{}}
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n")
	if g.Title != "" {
		fmt.Fprintf(&b, "  %%%% %s\n", oneLine(g.Title))
	}
	r.scope(&b, "", g.States, 1)
	for _, s := range r.noteOrder {
		fmt.Fprintf(&b, "  note right of %s\n", r.ids[s])
		for _, line := range r.notes[s] {
			fmt.Fprintf(&b, "    %s\n", mermaidText(line))
		}
		b.WriteString("  end note\n")
	}
	r.classes(&b)
	if ov != nil {
		mermaidValues(&b, ov)
	}
	return b.String()
}

type mermaidRenderer struct {
	g         *Graph
	ov        *Overlay
	ids       map[string]string
	nums      map[int][]int
	visited   map[string]bool
	notes     map[string][]string
	noteOrder []string
}

// scope writes the states of one level and the edges its composite owns.
func (r *mermaidRenderer) scope(b *strings.Builder, scope string, states []*State, depth int) {
	ind := strings.Repeat("  ", depth)
	for _, s := range states {
		id := r.ids[s.ID]
		// The actions go into the label, one per line: Mermaid refuses a
		// description on a composite, a note on a nested composite breaks
		// its layout, and it does not decode entity codes in descriptions.
		label := mermaidText(s.label())
		for _, a := range s.Actions {
			label += "<br/>" + mermaidText(a)
		}
		if len(s.Children) == 0 {
			fmt.Fprintf(b, "%sstate \"%s\" as %s\n", ind, label, id)
			continue
		}
		fmt.Fprintf(b, "%sstate \"%s\" as %s {\n", ind, label, id)
		r.scope(b, s.ID, s.Children, depth+1)
		fmt.Fprintf(b, "%s}\n", ind)
	}
	// Mermaid draws one edge per pair of states and keeps only the last
	// label of parallel transitions, so they share one edge with their
	// labels on separate lines.
	type pair struct{ from, to string }
	var order []pair
	labels := map[pair][]string{}
	for k, e := range r.g.Edges {
		if e.Scope != scope {
			continue
		}
		p := pair{"[*]", "[*]"}
		if e.From != "" {
			p.from = r.ids[e.From]
		}
		if e.To != "" {
			p.to = r.ids[e.To]
		}
		if _, ok := labels[p]; !ok {
			order = append(order, p)
			labels[p] = nil
		}
		if label := r.edgeLabel(k, e); label != "" {
			labels[p] = append(labels[p], mermaidText(label))
		}
	}
	for _, p := range order {
		if ls := labels[p]; len(ls) > 0 {
			fmt.Fprintf(b, "%s%s --> %s : %s\n", ind, p.from, p.to, strings.Join(ls, "<br/>"))
		} else {
			fmt.Fprintf(b, "%s%s --> %s\n", ind, p.from, p.to)
		}
	}
	for _, s := range states {
		if s.Final {
			fmt.Fprintf(b, "%s%s --> [*]\n", ind, r.ids[s.ID])
		}
	}
}

// edgeLabel is the label of edge k with its step numbers; a guard that
// makes it too wide is moved into a note on the source state.
func (r *mermaidRenderer) edgeLabel(k int, e Edge) string {
	label := e.Label
	if runewidth.StringWidth(label) > maxEdgeLabel && e.Guard != "" && e.From != "" {
		ref := fmt.Sprintf("guard %d", k)
		label = strings.Replace(label, "["+e.Guard+"]", "["+ref+"]", 1)
		if _, ok := r.notes[e.From]; !ok {
			r.noteOrder = append(r.noteOrder, e.From)
		}
		r.notes[e.From] = append(r.notes[e.From], ref+": "+e.Guard)
	}
	if ns := r.nums[k]; len(ns) > 0 {
		label = "(" + r.ov.numbersText(ns) + ") " + label
	}
	return label
}

// classes writes the overlay's class definitions and assignments, and the
// pseudo-state style.
func (r *mermaidRenderer) classes(b *strings.Builder) {
	members := map[string][]string{}
	r.g.walk(func(s *State, _ int) {
		if s.Pseudo {
			members["pseudo"] = append(members["pseudo"], r.ids[s.ID])
		}
		if role := r.ov.role(s.ID, r.visited); role != "" {
			members[role] = append(members[role], r.ids[s.ID])
		}
	})
	for _, c := range []struct{ name, style string }{
		{"pseudo", "stroke-dasharray: 4 3"},
		{"visited", "fill:#deebf7,stroke:#08519c,stroke-width:2px"},
		{"highlight", "fill:#fee6ce,stroke:#a63603,stroke-width:3px,stroke-dasharray: 6 3"},
		{"violating", "fill:#fdae6b,stroke:#7f2704,stroke-width:4px,font-weight:bold"},
	} {
		if len(members[c.name]) == 0 {
			continue
		}
		fmt.Fprintf(b, "  classDef %s %s\n", c.name, c.style)
		fmt.Fprintf(b, "  class %s %s\n", strings.Join(members[c.name], ","), c.name)
	}
}

// mermaidText escapes text for a Mermaid label: characters the grammar
// reads (quotes, colons, semicolons, arrows, braces, comment and entity
// markers) become Mermaid entity codes, which the renderer turns back into
// the characters; control characters become their pictures (oneLine).
func mermaidText(s string) string {
	var b strings.Builder
	for _, c := range oneLine(s) {
		switch c {
		case '"':
			b.WriteString("#quot;")
		case '#', ';', ':', '<', '>', '&', '{', '}', '%', '`', '|', '\\':
			fmt.Fprintf(&b, "#%d;", c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// oneLine shows control characters (line breaks above all) as their
// Unicode control pictures (␊ for a line feed): every format here is
// line-oriented somewhere, and a name with a line break must not look
// like the same name with a space.
func oneLine(s string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c < ' ':
			return 0x2400 + c
		case c == 0x7f:
			return '\u2421'
		case c == '\u2028' || c == '\u2029' || c == '\u0085':
			return '\u2424'
		}
		return c
	}, s)
}

// mermaidValues writes the overlay's walk and values as comment lines:
// Mermaid has no table, and the text stays with the picture.
func mermaidValues(b *strings.Builder, ov *Overlay) {
	if ov.Title != "" {
		fmt.Fprintf(b, "  %%%% %s\n", oneLine(ov.Title))
	}
	for i, s := range ov.Steps {
		fmt.Fprintf(b, "  %%%% step %s: %s --%s--> %s\n", ov.numbersText([]int{i + 1}), oneLine(s.From), oneLine(s.Event), oneLine(s.To))
	}
	for i, f := range ov.Frames {
		parts := make([]string, len(f.Values))
		for k, v := range f.Values {
			parts[k] = oneLine(ov.Vars[k]) + " = " + oneLine(v)
		}
		fmt.Fprintf(b, "  %%%% frame %d: %s %s\n", i, oneLine(f.State), strings.Join(parts, ", "))
	}
	if ov.FramesNote != "" {
		fmt.Fprintf(b, "  %%%% %s\n", oneLine(ov.FramesNote))
	}
}
