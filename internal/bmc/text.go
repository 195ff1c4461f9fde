package bmc

import (
	"fmt"
	"io"
	"strings"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/trace"
)

var headlines = map[string]string{
	"witness_found":       "PROPERTY HOLDS WITHIN BOUND; WITNESS FOUND",
	"no_witness":          "GOAL UNREALIZABLE WITHIN BOUND; NO WITNESS",
	"property_violated":   "PROPERTY DOES NOT HOLD WITHIN BOUND; COUNTEREXAMPLE FOUND",
	"property_satisfied":  "PROPERTY GUARANTEED WITHIN BOUND; NO COUNTEREXAMPLE",
	"incomplete":          "PROPERTY INCONCLUSIVE; RESPONSE HORIZON INCOMPLETE",
	"scenario_infeasible": "SCENARIO INFEASIBLE; PROPERTY NOT EVALUATED",
	"unknown":             "PROPERTY INCONCLUSIVE; SOLVER UNKNOWN",
	"timeout":             "PROPERTY INCONCLUSIVE; SOLVER TIMEOUT",
	"feasibility_unknown": "SCENARIO FEASIBILITY UNKNOWN; PROPERTY NOT EVALUATED",
	"feasibility_timeout": "SCENARIO FEASIBILITY TIMEOUT; PROPERTY NOT EVALUATED",
}

// Headline is the first line of the text report (docs/reports.md).
func (rep *Report) Headline() string {
	r := rep.Result
	h := headlines[r.Outcome]
	if r.Fair != nil && r.Outcome == "incomplete" {
		h = "PROPERTY INCONCLUSIVE; NO FAIR LASSO WITHIN BOUND"
	}
	if r.RaiseSite != "" && r.Outcome == "unknown" {
		h = "PROPERTY INCONCLUSIVE; A RUN RAISES A RUNTIME ERROR WITHIN BOUND"
	}
	if rep.Replay != nil && !rep.Replay.OK() {
		h = "EVIDENCE/REPLAY MISMATCH; RESULT UNTRUSTED"
	}
	return fmt.Sprintf("BMC %s <= %d: %s", r.Kind, r.Bound, h)
}

// WriteText renders the report for a person: headline, what was asked,
// how the solver answered, the trace as a table, and the replay.
func (rep *Report) WriteText(w io.Writer) error {
	r := rep.Result
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", rep.Headline())
	fmt.Fprintf(&b, "  model  %s\n", rep.ModelPath)
	for _, line := range strings.Split(strings.TrimSpace(rep.Query), "\n") {
		fmt.Fprintf(&b, "  query  %s\n", line)
	}
	fmt.Fprintf(&b, "  outcome %s: solver %s", r.Outcome, r.Status)
	if r.Reason != "" {
		fmt.Fprintf(&b, " (%s)", r.Reason)
	}
	fmt.Fprintf(&b, " in %.1f ms at bound %d, %d trace symbols\n", r.ElapsedMS, r.SolvedBound, r.Symbols)
	if d := r.EveryDepth; d != nil {
		what := "holds at every depth"
		if r.Outcome == "no_witness" {
			what = "no witness at any depth"
		}
		fmt.Fprintf(&b, "  %s (explicit search: %d states, diameter %d; docs/queries.md#when-the-bound-is-enough)\n", what, d.States, d.Diameter)
	}
	if f := r.Feasibility; f.LocalizationStatus != "not_needed" && f.LocalizationStatus != "" {
		fmt.Fprintf(&b, "  feasibility: kernel %s, initialization %s, assumptions %s", stageText(f.Kernel), stageText(f.Initialization), stageText(f.Assumptions))
		if f.InfeasibleStage != "" {
			fmt.Fprintf(&b, "; satisfiability is lost at the %s stage", f.InfeasibleStage)
		}
		b.WriteString("\n")
	}
	if r.Fair != nil {
		fmt.Fprintf(&b, "  fairness: weak %s; a counterexample must be a fair lasso (docs/queries.md#fairness)\n", strings.Join(r.Fair, ", "))
		if r.IncompleteReason != "" {
			fmt.Fprintf(&b, "  undecided: %s\n", r.IncompleteReason)
		}
	} else if r.IncompleteStatus != "" || r.IncompleteReason != "" {
		fmt.Fprintf(&b, "  response tail: %s %s\n", orDash(r.IncompleteStatus), r.IncompleteReason)
	}
	for _, d := range r.Diagnostics {
		fmt.Fprintf(&b, "  note: %s\n", d)
	}
	if n := len(r.ErrorSites); n > 0 {
		shown := r.ErrorSites[:min(n, 3)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf(" and %d more", n-len(shown))
		}
		fmt.Fprintf(&b, "  note: a step that raises a runtime error (division by zero, a non-integral int writeback, ...) is excluded from every trace, so a result without a trace is undecided when a run raises within the bound; the model can raise at %s%s\n", strings.Join(shown, ", "), more)
	}
	if r.Trace != nil {
		fmt.Fprintf(&b, "\n%s (%d steps", strings.ReplaceAll(r.Trace.Role, "_", " "), len(r.Trace.Steps))
		if f := r.PropertyFrame; f != nil {
			fmt.Fprintf(&b, "; %s at frame %d", frameVerb(r), *f)
		}
		b.WriteString("):\n")
		writeTrace(&b, r.Trace, r.PropertyFrame, frameVerb(r))
		if l := r.LoopStart; l != nil {
			n := len(r.Trace.Steps)
			fmt.Fprintf(&b, "cycle: frame %d is frame %d again; steps %d–%d repeat forever\n", n, *l, *l, n-1)
		}
	}
	if rep.Replay != nil {
		if rep.Replay.OK() {
			fmt.Fprintf(&b, "\nreplay: ok — the runtime reproduces all %d frames and %d steps (this confirms the trace, not the verdict)\n", len(rep.Replay.Frames), len(rep.Replay.Steps))
		} else {
			fmt.Fprintf(&b, "\nreplay: MISMATCH — the runtime disagrees with the decoded trace:\n")
			for _, m := range rep.Replay.Mismatches {
				fmt.Fprintf(&b, "  %s\n", m)
			}
		}
	}
	if ref := r.Refinement; ref != nil && ref.Explanation != nil {
		b.WriteString("\n" + ref.Explanation.Text())
	} else if ref != nil && ref.Reason != "" {
		fmt.Fprintf(&b, "\nexplanation: %s (%s)\n", ref.Status, ref.Reason)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func stageText(s Stage) string {
	switch s.Origin {
	case "not_checked":
		return "not checked"
	case "inferred":
		return s.Status + " (inferred)"
	}
	if s.Reason != "" {
		return s.Status + " (" + s.Reason + ")"
	}
	return s.Status
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// frameVerb says what happens at the property frame of r.
func frameVerb(r *Result) string {
	if r.Polarity == query.Counterexample {
		return "the property is violated"
	}
	return "the goal is met"
}

// writeTrace draws frames as table rows with each step between them; the
// row of frame mark (when not nil) ends with "<- " and what happens there.
func writeTrace(b *strings.Builder, tr *trace.Trace, mark *int, what string) {
	rows := [][]string{{"frame", "state"}}
	if len(tr.Frames) > 0 {
		for _, v := range tr.Frames[0].Vars {
			rows[0] = append(rows[0], v.Name)
		}
	}
	for _, f := range tr.Frames {
		state := f.State
		if f.Sentinel != "" {
			state = "<" + f.Sentinel + ">"
		}
		row := []string{fmt.Sprint(f.Index), state}
		for _, v := range f.Vars {
			row = append(row, fmt.Sprint(v.Value))
		}
		rows = append(rows, row)
	}
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for k, cell := range row {
			width[k] = max(width[k], len(cell))
		}
	}
	line := func(row []string) {
		b.WriteString("  ")
		for k, cell := range row {
			if k == len(row)-1 {
				b.WriteString(cell)
			} else {
				fmt.Fprintf(b, "%-*s  ", width[k], cell)
			}
		}
		b.WriteString("\n")
	}
	line(rows[0])
	for i := range tr.Frames {
		if mark != nil && *mark == i {
			rows[i+1][len(rows[i+1])-1] += "   <- " + what
		}
		line(rows[i+1])
		if i < len(tr.Steps) {
			s := tr.Steps[i]
			var ev []string
			for _, e := range s.InputEvents {
				ev = append(ev, e.Path)
			}
			what := "--" + strings.Join(ev, ",") + "--> " + s.TargetState
			if s.Delta {
				what = "(stays: nothing is enabled)"
			}
			fmt.Fprintf(b, "  %*s  %s   [%s]\n", width[0], "", what, s.CaseLabel)
		}
	}
}
