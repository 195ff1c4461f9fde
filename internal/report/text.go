package report

import (
	"fmt"
	"io"
	"strings"
)

// Style colours text output; the zero value writes plain text.
type Style struct {
	Color bool
}

func (s Style) paint(code, text string) string {
	if !s.Color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

func (s Style) verdict(v string) string {
	switch v {
	case Pass:
		return s.paint("1;32", "PASS")
	case PassWithFindings:
		return s.paint("1;33", "PASS WITH FINDINGS")
	case NotDecided:
		return s.paint("1;35", "NOT DECIDED")
	}
	return s.paint("1;31", "FAIL")
}

func (s Style) severity(f *Finding) string {
	switch {
	case f.Undecided():
		return s.paint("35", "not decided")
	case f.Severity == Error:
		return s.paint("31", "error")
	case f.Severity == Warning:
		return s.paint("33", "warning")
	}
	return s.paint("36", "info")
}

// FormatPath draws a path as `A --event--> B --event--> C`; an empty path
// is the initial state itself.
func FormatPath(p []Step) string {
	if len(p) == 0 {
		return "(the initial state)"
	}
	var b strings.Builder
	b.WriteString(p[0].From)
	for _, s := range p {
		fmt.Fprintf(&b, " --%s--> %s", s.Event, s.To)
	}
	return b.String()
}

// WriteVerifyText renders a verify report for a person: the verdict first,
// then the findings grouped by check with their paths, then what passed,
// then what to do next.
func WriteVerifyText(w io.Writer, name string, r *VerifyReport, st Style) error {
	var b strings.Builder
	verdict, reason := r.Verdict()
	fmt.Fprintf(&b, "%s  %s\n  %s\n", st.verdict(verdict), name, reason)
	if r.Valid {
		fmt.Fprintf(&b, "  model %s (hash spec %s), %d states, %d transitions, %d checks run", r.ModelHash, r.HashSpec, r.States, r.Transitions, r.ChecksRun())
		if r.Truncated {
			fmt.Fprintf(&b, ", %s", st.paint("35", r.StopText()))
		}
		b.WriteString("\n")
	}
	if r.Comparison != nil {
		fmt.Fprintf(&b, "  compared with the BEFORE model %s\n", r.Comparison.Get("beforeModelHash"))
	}
	passed := writeChecks(&b, r.Checks, st, func(f *Finding) { writeFinding(&b, f, st) })
	for i := range r.Findings {
		b.WriteString("\n")
		writeFinding(&b, &r.Findings[i], st)
	}
	writePassed(&b, passed, st)
	writeQueries(&b, r.Queries)
	if len(r.CoverageNotes) > 0 {
		b.WriteString("\nCoverage notes:\n")
		for _, n := range r.CoverageNotes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	writeNextSteps(&b, r.NextSteps())
	_, err := io.WriteString(w, b.String())
	return err
}

// writeChecks prints every check that has findings, each finding through
// write, and returns the "ID Name" of the checks that passed.
func writeChecks(b *strings.Builder, checks []Check, st Style, write func(*Finding)) (passed []string) {
	for i := range checks {
		c := &checks[i]
		if c.Status() == Pass {
			passed = append(passed, c.ID+" "+c.Name)
			continue
		}
		fmt.Fprintf(b, "\n%s %s: %s\n", st.paint("1", c.ID), st.paint("1", c.Name), c.FullDetail())
		for j := range c.Findings {
			write(&c.Findings[j])
		}
		if n := c.Unlisted.Total(); n > 0 {
			fmt.Fprintf(b, "  ... and %d more %s not listed (raise --max-findings, 0 lists all)\n", n, map[bool]string{true: "finding", false: "findings"}[n == 1])
		}
	}
	return passed
}

func writePassed(b *strings.Builder, passed []string, st Style) {
	if len(passed) > 0 {
		fmt.Fprintf(b, "\n%s %s\n", st.paint("32", "passed:"), strings.Join(passed, ", "))
	}
}

func writeNextSteps(b *strings.Builder, steps []string) {
	b.WriteString("\nNext steps:\n")
	for _, s := range steps {
		fmt.Fprintf(b, "  - %s\n", s)
	}
}

func writeFinding(b *strings.Builder, f *Finding, st Style) {
	fmt.Fprintf(b, "  %s %s: %s\n", st.severity(f), f.Code, f.Message)
	if f.Detail != "" { // e.g. the source line and a caret under a syntax error
		for _, line := range strings.Split(f.Detail, "\n") {
			fmt.Fprintf(b, "      %s\n", line)
		}
	}
	if f.HasPath || len(f.Path) > 0 {
		fmt.Fprintf(b, "      path: %s\n", FormatPath(f.Path))
		writeCycle(b, f)
	}
}

// writeCycle says which steps of a lasso's path repeat forever (evidence
// cycleStart, docs/liveness.md#reading-a-lasso); other paths get no line.
func writeCycle(b *strings.Builder, f *Finding) {
	cs, ok := f.Evidence.Get("cycleStart").(int)
	switch {
	case !ok || cs < 0 || cs > len(f.Path):
	case cs == len(f.Path) && cs == 0:
		fmt.Fprintf(b, "      cycle: none, the initial runtime is a dead end and the run stays there forever\n")
	case cs == len(f.Path):
		fmt.Fprintf(b, "      cycle: none, the run stays in %s (a dead end) forever\n", f.Path[cs-1].To)
	default:
		fmt.Fprintf(b, "      cycle: steps %d–%d, from %s back to it, repeat forever\n", cs+1, len(f.Path), f.Path[cs].From)
	}
}
