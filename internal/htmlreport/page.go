package htmlreport

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"regexp"
	"strings"

	"github.com/stateproof/stateproof/internal/diagram"
)

//go:embed page.html.tmpl
var pageTemplate string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

// maxWalks bounds the findings that get a picture of their own; a report
// with thousands of paths stays a page a browser opens.
const maxWalks = 60

// Page is everything one report page shows.
type Page struct {
	Kind    string // verify, compose, bmc, prove
	Input   string // what was checked (file names)
	Verdict Verdict
	Facts   []string // one-line facts under the verdict (hashes, counts, caps)
	Figures []Figure // the machines, without overlays
	Groups  []Group  // findings grouped by check (or by property)
	Notes   []string // next steps, notes
	Text    string   // the text report, shown folded at the end
	Version string   // stateproof's version
	walks   int
}

// Verdict is the judgement at the top of the page. Class is pass, warn,
// fail or unknown; Word is what it says in text.
type Verdict struct {
	Class, Word, Reason string
}

// Figure is one picture.
type Figure struct {
	Caption string
	SVG     template.HTML
}

// Group is one check (or property) with its findings.
type Group struct {
	ID, Name, Status, Detail string
	Items                    []Item
}

// Item is one finding.
type Item struct {
	Severity, Code, Message, Detail string
	Walk                            *Walk    // nil when the finding has nothing to draw
	Figures                         []Figure // further pictures (one per machine of a composition)
}

// Walk is a finding drawn on its machine.
type Walk struct {
	ID      string // element id prefix, unique in the page
	Figure  Figure
	Note    string // what the highlighted states are
	Vars    []string
	Rows    []Row
	Missing string // why values are missing ("" when complete)
	Capped  bool   // over maxWalks: listed, not drawn
}

// Row is one frame of a walk: the step that led to it (none for frame 0).
type Row struct {
	Step        int // 0 for the start
	From, Event string
	State       string
	Values      []string
	EdgeIDs     string // space-separated element ids of the step's edges
	StateID     string // element id of the frame's state ("" when unknown)
	Cycle       bool   // the step is on a lasso's cycle, which repeats forever
}

// newWalk draws ov on g as a walk of the page; nil ov gives nil.
func (p *Page) newWalk(ctx context.Context, g *diagram.Graph, ov *diagram.Overlay) (*Walk, error) {
	if ov == nil {
		return nil, nil
	}
	p.walks++
	w := &Walk{ID: fmt.Sprintf("w%d_", p.walks), Note: ov.HighlightNote, Vars: ov.Vars, Missing: ov.FramesNote}
	if p.walks > maxWalks {
		w.Capped = true
	} else {
		svg, err := inlineSVG(ctx, g, ov, w.ID)
		if err != nil {
			return nil, err
		}
		w.Figure = Figure{Caption: ov.Title, SVG: svg}
	}
	ids := g.StateElementIDs()
	n := len(ov.Steps) + 1
	for i := 0; i < n; i++ {
		r := Row{Step: i}
		switch {
		case i < len(ov.Frames):
			r.State, r.Values = ov.Frames[i].State, ov.Frames[i].Values
		case i > 0:
			r.State = ov.Steps[i-1].To
		case len(ov.Steps) > 0:
			r.State = ov.Steps[0].From
		}
		if i > 0 {
			st := ov.Steps[i-1]
			r.From, r.Event = st.From, st.Event
			r.Cycle = ov.Cycle > 0 && i >= ov.Cycle
			var es []string
			for _, k := range st.Edges {
				es = append(es, fmt.Sprintf("%se%d", w.ID, k))
			}
			r.EdgeIDs = strings.Join(es, " ")
		}
		if id, ok := ids[r.State]; ok && !w.Capped {
			r.StateID = w.ID + id
		}
		w.Rows = append(w.Rows, r)
	}
	return w, nil
}

// figure draws g without an overlay.
func figure(ctx context.Context, g *diagram.Graph, caption, prefix string) (Figure, error) {
	svg, err := inlineSVG(ctx, g, nil, prefix)
	return Figure{Caption: caption, SVG: svg}, err
}

var svgPrologue = regexp.MustCompile(`(?s)^.*?(<svg\b)`)

// inlineSVG lays out g and returns the SVG element for inlining: without
// the XML prologue and doctype, which HTML does not take.
func inlineSVG(ctx context.Context, g *diagram.Graph, ov *diagram.Overlay, prefix string) (template.HTML, error) {
	data, err := diagram.SVG(ctx, g, ov, prefix)
	if err != nil && ctx.Err() == nil {
		// The machine is too large to lay out: the page says so where
		// the picture would be, and keeps the rest.
		return template.HTML(`<p class="note">Not drawn: ` + template.HTMLEscapeString(err.Error()) + `</p>`), nil
	}
	if err != nil {
		return "", err
	}
	s := svgPrologue.ReplaceAllString(string(data), "$1")
	s = strings.Replace(s, "<svg ", `<svg role="img" `, 1)
	// The SVG comes from diagram.SVG, which escapes every label; it is
	// markup we produced, not user text.
	return template.HTML(s), nil
}

// Render writes the page.
func (p *Page) Render() ([]byte, error) {
	t, err := template.New("page").Funcs(template.FuncMap{
		"css":      func() template.CSS { return template.CSS(pageCSS) },
		"js":       func() template.JS { return template.JS(pageJS) },
		"maxWalks": func() int { return maxWalks },
		"passed":   passedGroups,
	}).Parse(pageTemplate)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// passedGroups lists the groups without items ("S1 Reachability, …"),
// which the page names in one line instead of a section each.
func passedGroups(gs []Group) string {
	var out []string
	for _, g := range gs {
		if len(g.Items) == 0 {
			out = append(out, strings.TrimSpace(g.ID+" "+g.Name))
		}
	}
	return strings.Join(out, ", ")
}
