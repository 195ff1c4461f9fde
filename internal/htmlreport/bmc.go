package htmlreport

import (
	"context"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/diagram"
)

// exitVerdict names the verdict of an exit code of bmc or prove: 0 holds
// or witnessed, 1 negative, 3 not decided, 4 replay mismatch.
func exitVerdict(code int, reason string) Verdict {
	switch code {
	case 0:
		return Verdict{"pass", "pass", reason}
	case 1:
		return Verdict{"fail", "fail", reason}
	case 4:
		return Verdict{"fail", "replay mismatch", reason}
	}
	return Verdict{"unknown", "not decided", reason}
}

// BMC builds the page of one or more bmc checks of a model drawn as g
// (of any format). exit is the command's aggregated exit code; text is its
// text report.
func BMC(ctx context.Context, name string, g *diagram.Graph, reports []*bmc.Report, exit int, text, version string) (*Page, error) {
	p := &Page{Kind: "bmc", Input: name, Version: version, Text: text}
	fig, err := figure(ctx, g, "The machine of "+name, "m_")
	if err != nil {
		return nil, err
	}
	p.Figures = append(p.Figures, fig)
	reason := ""
	for _, r := range reports {
		res := r.Result
		if reason == "" || r.ExitCode() == exit {
			reason = res.Outcome
		}
		grp := Group{ID: res.Kind.String(), Name: r.Query, Status: res.Outcome}
		it := Item{Severity: severityOfExit(r.ExitCode()), Code: res.Outcome, Message: r.Query}
		if r.Replay != nil {
			if r.Replay.OK() {
				it.Detail = "The trace was replayed on the runtime, which agrees."
			} else {
				it.Detail = "The runtime does NOT agree with the trace: the result is untrusted."
			}
		}
		if res.Trace != nil {
			title := "witness"
			if res.Outcome == "property_violated" {
				title = "counterexample"
			}
			ov := diagram.TraceOverlay(g, res.Trace, title+" of "+r.Query, res.Outcome == "property_violated")
			if it.Walk, err = p.newWalk(ctx, g, ov); err != nil {
				return nil, err
			}
		}
		grp.Items = append(grp.Items, it)
		p.Groups = append(p.Groups, grp)
	}
	p.Verdict = exitVerdict(exit, reason)
	return p, nil
}

func severityOfExit(code int) string {
	switch code {
	case 0:
		return "info"
	case 3:
		return "warning"
	}
	return "error"
}
