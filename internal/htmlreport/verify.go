package htmlreport

import (
	"context"
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/diagram"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// verdictOf names a verify or compose verdict.
func verdictOf(verdict, reason string) Verdict {
	switch verdict {
	case report.Pass:
		return Verdict{"pass", "pass", reason}
	case report.PassWithFindings:
		return Verdict{"warn", "pass with findings", reason}
	case report.NotDecided:
		return Verdict{"warn", "not decided", reason}
	}
	return Verdict{"fail", "fail", reason}
}

// Picture is the machine a verify page draws: its graph (nil when the
// model did not load: the page then lists the errors only) and, for a
// JSON model, the model its paths are replayed on for the values.
type Picture struct {
	Graph *diagram.Graph
	Model *jsonmodel.Model
}

// Verify builds the page of a verify report.
func Verify(ctx context.Context, name string, rep *report.VerifyReport, pic Picture, version string) (*Page, error) {
	v, reason := rep.Verdict()
	p := &Page{Kind: "verify", Input: name, Verdict: verdictOf(v, reason), Version: version, Notes: rep.NextSteps()}
	p.Facts = append(p.Facts, fmt.Sprintf("model %s (hash spec %s), %d states, %d transitions, %d checks run", rep.ModelHash, rep.HashSpec, rep.States, rep.Transitions, rep.ChecksRun()))
	if rep.Truncated {
		// the same account of the limits as the text report's header
		// (a search the disk budget stopped is not blamed on the cap)
		p.Facts = append(p.Facts, fmt.Sprintf("%s: what they did not decide is reported as not decided", rep.StopText()))
	}
	g, m := pic.Graph, pic.Model
	if g != nil {
		fig, err := figure(ctx, g, "The machine of "+name, "m_")
		if err != nil {
			return nil, err
		}
		p.Figures = append(p.Figures, fig)
	}
	err := p.addChecks(rep.Checks, func(f *report.Finding) (Item, error) { return p.item(ctx, g, m, f) })
	if err != nil {
		return nil, err
	}
	if len(rep.Findings) > 0 {
		grp := Group{ID: "", Name: "Other findings", Status: "info"}
		for k := range rep.Findings {
			it, err := p.item(ctx, g, m, &rep.Findings[k])
			if err != nil {
				return nil, err
			}
			grp.Items = append(grp.Items, it)
		}
		p.Groups = append(p.Groups, grp)
	}
	return p, nil
}

// rank orders groups: 0 with an error finding, 1 with a warning, 2 else.
func rank(g Group) int {
	r := 2
	for _, it := range g.Items {
		switch it.Severity {
		case report.Error:
			return 0
		case report.Warning:
			r = 1
		}
	}
	return r
}

// addChecks adds a group per check, its findings rendered by item, the
// worst first: checks with an error, then with a warning, in report order
// within each.
func (p *Page) addChecks(checks []report.Check, item func(*report.Finding) (Item, error)) error {
	for i := range checks {
		c := &checks[i]
		grp := Group{ID: c.ID, Name: c.Name, Status: c.Status(), Detail: c.FullDetail()}
		for k := range c.Findings {
			it, err := item(&c.Findings[k])
			if err != nil {
				return err
			}
			grp.Items = append(grp.Items, it)
		}
		p.Groups = append(p.Groups, grp)
	}
	slices.SortStableFunc(p.Groups, func(a, b Group) int { return rank(a) - rank(b) })
	return nil
}

// item is one finding, with its walk when it has something to draw.
func (p *Page) item(ctx context.Context, g *diagram.Graph, m *jsonmodel.Model, f *report.Finding) (Item, error) {
	it := Item{Severity: f.Severity, Code: f.Code, Message: f.Message, Detail: f.Detail}
	if g == nil {
		return it, nil
	}
	w, err := p.newWalk(ctx, g, diagram.FindingOverlay(g, m, f))
	it.Walk = w
	return it, err
}
