package diagram

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

const (
	margin      = 8.0
	arrowLength = 8.0
	arrowHalf   = 3.5
	tableFont   = 10.0
	tableRow    = 17.0
)

// SVG lays g out (see layout.go: a layered drawing from left to right,
// composites as clusters around their children) and returns the SVG
// document, with ov drawn on it when ov is not nil. Every state, marker
// and edge is a group with the id DOT gives it (after idPrefix) and the
// classes "node", "cluster" or "edge" followed by DOT's class, so a page
// can find and style them. It fails only when the machine is too large to
// lay out or ctx ends.
func SVG(ctx context.Context, g *Graph, ov *Overlay, idPrefix string) ([]byte, error) {
	r := newRenderer(g, ov, idPrefix)
	sc, err := newSceneBuilder(r).scope(ctx, "", g.States)
	if err != nil {
		return nil, err
	}
	w := &svgWriter{r: r}
	return w.document(sc), nil
}

type svgWriter struct {
	r   *dotRenderer
	buf bytes.Buffer
}

func (w *svgWriter) printf(format string, args ...any) { fmt.Fprintf(&w.buf, format, args...) }

func (w *svgWriter) document(sc *scene) []byte {
	g, ov := w.r.g, w.r.ov
	titleH := 0.0
	width := sc.w
	if g.Title != "" {
		titleH = 22
		width = max(width, textWidth(oneLine(g.Title), titleFont))
	}
	var table *valueTable
	tableH := 0.0
	if ov != nil && len(ov.Frames) > 0 {
		table = newValueTable(ov)
		tableH = 16 + table.h
		width = max(width, table.w)
	}
	height := titleH + sc.h + tableH
	width, height = width+2*margin, height+2*margin
	w.printf("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
	w.printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%spt\" height=\"%spt\" viewBox=\"0 0 %s %s\" font-family=\"Helvetica,Arial,sans-serif\">\n", num(width), num(height), num(width), num(height))
	title := "machine"
	if g.Title != "" {
		title = g.Title
	}
	w.printf("<title>%s</title>\n", svgText(title))
	w.printf("<rect width=\"%s\" height=\"%s\" fill=\"white\"/>\n", num(width), num(height))
	if g.Title != "" {
		w.text(width/2, margin+15, titleFont, "middle", "", "title", g.Title)
	}
	dx, dy := margin+(width-2*margin-sc.w)/2, margin+titleH
	w.printf("<g transform=\"translate(%s %s)\">\n", num(dx), num(dy))
	for _, n := range sc.nodes {
		w.node(n)
	}
	for _, e := range sc.edges {
		w.edge(e)
	}
	w.printf("</g>\n")
	if table != nil {
		table.write(w, margin, margin+titleH+sc.h+16)
	}
	w.printf("</svg>\n")
	return w.buf.Bytes()
}

// node draws a state, a composite or a marker.
func (w *svgWriter) node(n sceneNode) {
	id := w.r.prefix + n.id
	switch n.kind {
	case initialNode:
		w.printf("<g id=\"%s\" class=\"node\">\n", svgText(id))
		w.printf("<ellipse cx=\"%s\" cy=\"%s\" rx=\"%s\" ry=\"%s\" fill=\"black\" stroke=\"black\"/>\n</g>\n", num(n.x+n.w/2), num(n.y+n.h/2), num(initRadius), num(initRadius))
		return
	case finalNode:
		cx, cy := num(n.x+n.w/2), num(n.y+n.h/2)
		w.printf("<g id=\"%s\" class=\"node\">\n", svgText(id))
		w.printf("<ellipse cx=\"%s\" cy=\"%s\" rx=\"%s\" ry=\"%s\" fill=\"white\" stroke=\"black\"/>\n", cx, cy, num(finalRadius), num(finalRadius))
		w.printf("<ellipse cx=\"%s\" cy=\"%s\" rx=\"3.5\" ry=\"3.5\" fill=\"black\" stroke=\"black\"/>\n</g>\n", cx, cy)
		return
	}
	s := n.state
	group, stroke, font, line := "node", border(n.role), stateFont, stateLine
	if n.composite {
		group, stroke, font, line = "cluster", "#555555", clusterFont, clusterLine
	}
	w.printf("<g id=\"%s\" class=\"%s\">\n", svgText(id), strings.TrimSpace(group+" state "+n.role))
	dash := ""
	if n.role == "highlight" || s.Pseudo {
		dash = ` stroke-dasharray="5,2"`
	}
	paint := fmt.Sprintf(`fill="%s" stroke="%s" stroke-width="%s"%s`, fill(n.role), stroke, penwidth(n.role), dash)
	if n.role == "violating" && !n.composite {
		c := octagonCut
		w.printf("<polygon %s points=\"%s\"/>\n", paint, points([]point{
			{n.x + c, n.y}, {n.x + n.w - c, n.y}, {n.x + n.w, n.y + c}, {n.x + n.w, n.y + n.h - c},
			{n.x + n.w - c, n.y + n.h}, {n.x + c, n.y + n.h}, {n.x, n.y + n.h - c}, {n.x, n.y + c},
		}))
	} else {
		w.printf("<path %s d=\"%s\"/>\n", paint, roundedRect(n.x, n.y, n.w, n.h, 6))
	}
	_, bh := textBlock(s.label(), s.Actions, font, line)
	top := n.y + (n.h-bh)/2
	if n.composite {
		top = n.y + clusterPad
	}
	cx := n.x + n.w/2
	w.text(cx, baseline(top, line, font), font, "middle", "", "", s.label())
	top += line
	for _, a := range s.Actions {
		w.text(cx, baseline(top, actionLine, actionFont), actionFont, "middle", "", "", a)
		top += actionLine
	}
	w.printf("</g>\n")
}

// edge draws an edge with its arrowhead and label.
func (w *svgWriter) edge(e sceneEdge) {
	colour, width, arrow := "black", "1", 1.0
	switch {
	case e.onCycle:
		colour, width, arrow = colourStrong, "3.5", 1.6
	case e.onPath:
		colour, width, arrow = colourPath, "2.5", 1.4
	}
	dash := ""
	if e.forced {
		dash = ` stroke-dasharray="5,2"`
	}
	w.printf("<g id=\"%s\" class=\"edge %s\">\n", svgText(w.r.prefix+e.id), e.class)
	route := append([]point(nil), e.route...)
	tip, n := route[len(route)-1], len(route)
	dir := unit(tip, route[n-2])
	back := arrowLength * arrow * 0.7
	end := point{tip.x - dir.x*back, tip.y - dir.y*back}
	route[n-1] = end
	if c := route[n-2]; (c.x-end.x)*dir.x+(c.y-end.y)*dir.y > 0 {
		route[n-2] = end
	}
	var d strings.Builder
	d.WriteString("M" + num(route[0].x) + "," + num(route[0].y))
	for i := 1; i+2 < len(route); i += 3 {
		d.WriteString("C" + num(route[i].x) + "," + num(route[i].y) + " " + num(route[i+1].x) + "," + num(route[i+1].y) + " " + num(route[i+2].x) + "," + num(route[i+2].y))
	}
	w.printf("<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s d=\"%s\"/>\n", colour, width, dash, d.String())
	l, h := arrowLength*arrow, arrowHalf*arrow
	base := point{tip.x - dir.x*l, tip.y - dir.y*l}
	w.printf("<polygon fill=\"%s\" stroke=\"%s\" points=\"%s\"/>\n", colour, colour, points([]point{
		tip, {base.x - dir.y*h, base.y + dir.x*h}, {base.x + dir.y*h, base.y - dir.x*h},
	}))
	if e.label != "" {
		fillAttr := ""
		switch {
		case e.onCycle:
			fillAttr = colourStrong
		case e.onPath:
			fillAttr = colourPath
		}
		lw := textWidth(oneLine(e.label), edgeFont) + labelPadding
		w.text(e.labelAt.x+lw/2, baseline(e.labelAt.y, edgeLine, edgeFont), edgeFont, "middle", fillAttr, "", e.label)
	}
	w.printf("</g>\n")
}

// unit is the direction from b to a (rightwards when they coincide).
func unit(a, b point) point {
	dx, dy := a.x-b.x, a.y-b.y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return point{1, 0}
	}
	return point{dx / l, dy / l}
}

// text writes one line of user text, escaped.
func (w *svgWriter) text(x, y, size float64, anchor, colour, class, s string) {
	attrs := ""
	if colour != "" {
		attrs += ` fill="` + colour + `"`
	}
	if class != "" {
		attrs += ` class="` + class + `"`
	}
	w.printf("<text x=\"%s\" y=\"%s\" font-size=\"%s\" text-anchor=\"%s\"%s>%s</text>\n", num(x), num(y), num(size), anchor, attrs, svgText(s))
}

// baseline puts text of the size in the middle of a line starting at top.
func baseline(top, line, size float64) float64 { return top + line/2 + size*0.35 }

// svgText makes user text literal character data on one line: markup
// characters become entities, control characters their pictures, and the
// two non-characters XML forbids the replacement character.
func svgText(s string) string {
	s = strings.Map(func(c rune) rune {
		if c == 0xfffe || c == 0xffff {
			return '\ufffd'
		}
		return c
	}, oneLine(s))
	return html.EscapeString(s)
}

func roundedRect(x, y, w, h, r float64) string {
	r = min(r, w/2, h/2)
	p := func(a, b float64) string { return num(a) + "," + num(b) }
	return "M" + p(x+r, y) + "H" + num(x+w-r) + "Q" + p(x+w, y) + " " + p(x+w, y+r) +
		"V" + num(y+h-r) + "Q" + p(x+w, y+h) + " " + p(x+w-r, y+h) +
		"H" + num(x+r) + "Q" + p(x, y+h) + " " + p(x, y+h-r) +
		"V" + num(y+r) + "Q" + p(x, y) + " " + p(x+r, y) + "Z"
}

func points(ps []point) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = num(p.x) + "," + num(p.y)
	}
	return strings.Join(parts, " ")
}

// num prints a coordinate with at most two decimals, so the output is the
// same on every platform.
func num(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// valueTable is the overlay's frames as a table: one row per frame with
// the step that led to it, its event, the state and every variable.
type valueTable struct {
	rows   [][]string
	widths []float64
	w, h   float64
}

func newValueTable(ov *Overlay) *valueTable {
	t := &valueTable{rows: [][]string{append([]string{"step", "event", "state"}, ov.Vars...)}}
	for i, f := range ov.Frames {
		step, event := "start", ""
		if i > 0 && i-1 < len(ov.Steps) {
			step, event = ov.numbersText([]int{i}), ov.Steps[i-1].Event
		}
		t.rows = append(t.rows, append([]string{step, event, f.State}, f.Values...))
	}
	t.widths = make([]float64, len(t.rows[0]))
	for r, row := range t.rows {
		for c, cell := range row {
			if c < len(t.widths) {
				wd := textWidth(oneLine(cell), tableFont)
				if r == 0 {
					wd *= 1.1 // bold
				}
				t.widths[c] = max(t.widths[c], wd+10)
			}
		}
	}
	for _, wd := range t.widths {
		t.w += wd
	}
	t.h = tableRow * float64(len(t.rows))
	return t
}

func (t *valueTable) write(w *svgWriter, x, y float64) {
	w.printf("<g id=\"%s\" class=\"values\">\n", svgText(w.r.prefix+"values"))
	for r, row := range t.rows {
		cx := x
		for c, wd := range t.widths {
			cell := ""
			if c < len(row) {
				cell = row[c]
			}
			w.printf("<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"white\" stroke=\"black\"/>\n", num(cx), num(y), num(wd), num(tableRow))
			if r == 0 {
				w.printf("<text x=\"%s\" y=\"%s\" font-size=\"%s\" text-anchor=\"middle\" font-weight=\"bold\">%s</text>\n", num(cx+wd/2), num(baseline(y, tableRow, tableFont)), num(tableFont), svgText(cell))
			} else if cell != "" {
				w.text(cx+wd/2, baseline(y, tableRow, tableFont), tableFont, "middle", "", "", cell)
			}
			cx += wd
		}
		y += tableRow
	}
	w.printf("</g>\n")
}
