package decide

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/report"
)

// Check identifies the query check of an FCSTM verify report.
const (
	CheckID   = "FCSTM-Q1"
	CheckName = "FBMCQ Queries"
)

// Answer renders r, the answer to q, for the verify report.
func Answer(q *query.Query, r *Result, allDepths bool) report.QueryAnswer {
	a := report.QueryAnswer{Query: strings.TrimSpace(query.Format(q)), Kind: r.Kind.String(), Bound: r.Bound, AllDepths: allDepths || r.Kind == query.LTL,
		Outcome: r.Outcome, Reason: r.Reason, Frame: -1, States: r.States, Loop: -1}
	if r.Lasso {
		a.Loop = r.Loop
	}
	if len(r.Frames) > 0 {
		a.Frame = len(r.Steps)
		for i, in := range r.Steps {
			a.Path = append(a.Path, report.Step{From: r.Frames[i].String(), Event: "{" + strings.Join(in, ", ") + "}", To: r.Frames[i+1].String()})
		}
	}
	return a
}

// String names the frame's state as paths of FCSTM-S1 do.
func (f *Frame) String() string {
	switch {
	case f.Terminated:
		return "(ended)"
	case !f.Started:
		return f.State + " (not started)"
	}
	return f.State
}

// Check turns the answers into the FCSTM-Q1 check: an error finding per
// negative answer (a counterexample, no witness) and an undecided one per
// answer that decides nothing, so that the verdict and the exit code
// follow docs/reports.md (1 violated, 3 undecided); an answer that holds
// or has its witness adds no finding.
func Check(answers []report.QueryAnswer) report.Check {
	c := report.Check{ID: CheckID, Name: CheckName}
	held := 0
	for i := range answers {
		a := &answers[i]
		ev := report.O("query", a.Query, "outcome", a.Outcome)
		switch a.Outcome {
		case "witness_found", "property_satisfied":
			held++
		case "property_violated":
			if a.Loop >= 0 {
				// the key a JSON model's lasso has (docs/liveness.md#reading-a-lasso):
				// the text report, draw --finding and the HTML report mark the cycle
				ev = append(ev, report.KV{Key: "cycleStart", Value: a.Loop})
			}
			c.Findings = append(c.Findings, report.Finding{Code: "FBMCQ_PROPERTY_VIOLATED", Severity: report.Error, Target: a.Query, Evidence: ev,
				Message: violation(a), Path: a.Path, HasPath: true})
		case "no_witness":
			c.Findings = append(c.Findings, report.Finding{Code: "FBMCQ_NO_WITNESS", Severity: report.Error, Target: a.Query, Evidence: ev,
				Message: fmt.Sprintf("%s: no run %s reaches the goal", a.Query, within(a))})
		default:
			if strings.HasPrefix(a.Reason, "state cap reached") {
				ev = append(ev, report.KV{Key: "capKind", Value: "maxStates"})
			}
			c.Findings = append(c.Findings, report.Finding{Code: "FBMCQ_QUERY_UNDECIDED", Severity: report.Warning, Target: a.Query, Evidence: ev,
				Message: fmt.Sprintf("%s: not decided (%s): %s", a.Query, a.Outcome, a.Reason)})
		}
	}
	c.Detail = fmt.Sprintf("%d of %d queries hold or have their witness", held, len(answers))
	return c
}

// violation says what the path of a counterexample shows.
func violation(a *report.QueryAnswer) string {
	switch {
	case a.Loop >= 0:
		return fmt.Sprintf("%s: violated by an infinite run: frame %d of the path shown is frame %d again, and the steps from frame %d on repeat forever", a.Query, a.Frame, a.Loop, a.Loop)
	case a.Kind == "ltl":
		return fmt.Sprintf("%s: violated: every run that starts with the %d steps shown violates the formula, whatever it does next", a.Query, a.Frame)
	}
	return fmt.Sprintf("%s: violated at frame %d; the path shown reaches it", a.Query, a.Frame)
}

func within(a *report.QueryAnswer) string {
	if a.AllDepths {
		return "at any depth"
	}
	return fmt.Sprintf("within %d steps", a.Bound)
}
