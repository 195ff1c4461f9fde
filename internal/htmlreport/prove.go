package htmlreport

import (
	"context"
	"path/filepath"

	"github.com/stateproof/stateproof/internal/diagram"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/prove"
)

// Prove builds the page of a prove result. m is the JSON model (nil for a
// CHC problem, which has no machine to draw); origin maps the prover's
// transition labels to model transition indexes.
func Prove(ctx context.Context, name string, m *jsonmodel.Model, origin map[string]int, res *prove.Result, text, version string) (*Page, error) {
	p := &Page{Kind: "prove", Input: name, Version: version, Text: text}
	p.Verdict = exitVerdict(res.ExitCode(), res.Verdict)
	var g *diagram.Graph
	if m != nil {
		g = diagram.FromJSON(m, filepath.Base(name))
		fig, err := figure(ctx, g, "The machine of "+name, "m_")
		if err != nil {
			return nil, err
		}
		p.Figures = append(p.Figures, fig)
	}
	grp := Group{ID: "RSC", Name: "Reachable state constraints", Status: res.Verdict}
	for _, pr := range res.Props {
		it := Item{Severity: proveSeverity(pr.Status), Code: pr.Status, Message: pr.ID + " at " + pr.Node + ": " + pr.Formula, Detail: pr.Method}
		if pr.Reason != "" {
			it.Detail += " — " + pr.Reason
		}
		if pr.Replay != "" {
			it.Detail += " — replay: " + pr.Replay
		}
		if g != nil && len(pr.Trace) > 0 {
			ov := proveOverlay(g, m, origin, pr)
			w, err := p.newWalk(ctx, g, ov)
			if err != nil {
				return nil, err
			}
			it.Walk = w
		}
		grp.Items = append(grp.Items, it)
	}
	p.Groups = append(p.Groups, grp)
	if len(res.Certificate) > 0 {
		cert := Group{ID: "certificate", Name: "Certificate: the inductive constraint of every state", Status: "proved"}
		for _, c := range res.Certificate {
			cert.Items = append(cert.Items, Item{Severity: "info", Code: c.Node, Message: c.RSC})
		}
		p.Groups = append(p.Groups, cert)
	}
	return p, nil
}

func proveSeverity(status string) string {
	switch status {
	case prove.Violated:
		return "error"
	case prove.Verified:
		return "info"
	}
	return "warning"
}

// proveOverlay draws a prover trace: frame i is in trace[i].Node, entered
// by the transition labelled trace[i].Transition.
func proveOverlay(g *diagram.Graph, m *jsonmodel.Model, origin map[string]int, pr prove.PropResult) *diagram.Overlay {
	ov := &diagram.Overlay{Title: "counterexample of " + pr.ID, Violating: pr.Trace[len(pr.Trace)-1].Node}
	if pr.Status != prove.Violated {
		ov.Title, ov.Violating = "trace of "+pr.ID, ""
	}
	for _, a := range pr.Trace[0].Vars {
		ov.Vars = append(ov.Vars, a.Name)
	}
	bySource := g.EdgesBySource()
	for i, ts := range pr.Trace {
		fr := diagram.Frame{State: ts.Node}
		for _, a := range ts.Vars {
			fr.Values = append(fr.Values, a.Value)
		}
		ov.Frames = append(ov.Frames, fr)
		if i == 0 {
			continue
		}
		st := diagram.Step{From: pr.Trace[i-1].Node, To: ts.Node}
		if t, ok := origin[ts.Transition]; ok && t >= 0 && t < len(m.Transitions) {
			st.Event = m.Transitions[t].Event
			if k, ok := bySource[t]; ok {
				st.Edges = []int{k}
			}
		}
		ov.Steps = append(ov.Steps, st)
	}
	return ov
}
