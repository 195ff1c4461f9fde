package htmlreport

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stateproof/stateproof/internal/compose"
	"github.com/stateproof/stateproof/internal/diagram"
	"github.com/stateproof/stateproof/internal/report"
)

// Compose builds the page of a compose report: each machine drawn, and
// for a deadlock the composite path as a table with every machine drawn
// in the state it is stuck in.
func Compose(ctx context.Context, rep *report.ComposeReport, in []compose.Input, text, version string) (*Page, error) {
	names := make([]string, len(in))
	for i, x := range in {
		names[i] = x.Name
	}
	v, reason := rep.Verdict()
	p := &Page{Kind: "compose", Input: strings.Join(names, " "), Verdict: verdictOf(v, reason), Version: version, Text: text, Notes: rep.NextSteps()}
	p.Facts = append(p.Facts, fmt.Sprintf("%d machines, %d composite states explored", len(in), rep.CompositeStates))
	if rep.Truncated {
		p.Facts = append(p.Facts, fmt.Sprintf("the product search stopped at the cap of %d composite states: a missing deadlock is not decided", rep.MaxStates))
	}
	graphs := make([]*diagram.Graph, len(in))
	for i, x := range in {
		if x.Result == nil || !x.Result.Valid() {
			continue
		}
		graphs[i] = diagram.FromJSON(x.Result.Model, filepath.Base(x.Name))
		fig, err := figure(ctx, graphs[i], fmt.Sprintf("machine %d: %s", i, x.Name), fmt.Sprintf("m%d_", i))
		if err != nil {
			return nil, err
		}
		p.Figures = append(p.Figures, fig)
	}
	err := p.addChecks(rep.Checks, func(f *report.Finding) (Item, error) { return p.composeItem(ctx, graphs, f) })
	if err != nil {
		return nil, err
	}
	return p, nil
}

// composeItem is one compose finding; a deadlock gets its composite path
// as a walk and every machine drawn with its stuck state marked.
func (p *Page) composeItem(ctx context.Context, graphs []*diagram.Graph, f *report.Finding) (Item, error) {
	it := Item{Severity: f.Severity, Code: f.Code, Message: f.Message, Detail: f.Detail}
	if f.HasPath || len(f.Path) > 0 {
		ov := &diagram.Overlay{}
		for _, s := range f.Path {
			ov.Steps = append(ov.Steps, diagram.Step{From: s.From, Event: s.Event, To: s.To})
		}
		p.walks++
		w := &Walk{ID: fmt.Sprintf("w%d_", p.walks)}
		w.Rows = append(w.Rows, Row{State: firstState(f.Path)})
		for i, s := range f.Path {
			w.Rows = append(w.Rows, Row{Step: i + 1, From: s.From, Event: s.Event, State: s.To})
		}
		it.Walk = w
	}
	stuck, _ := f.Evidence.Get("states").([]string)
	for i, s := range stuck {
		if i >= len(graphs) || graphs[i] == nil || p.walks > maxWalks {
			continue
		}
		ov := &diagram.Overlay{Violating: s}
		svg, err := inlineSVG(ctx, graphs[i], ov, fmt.Sprintf("w%d_m%d_", p.walks, i))
		if err != nil {
			return it, err
		}
		it.Figures = append(it.Figures, Figure{Caption: fmt.Sprintf("machine %d stuck in %s", i, s), SVG: svg})
	}
	return it, nil
}

func firstState(path []report.Step) string {
	if len(path) == 0 {
		return ""
	}
	return path[0].From
}
