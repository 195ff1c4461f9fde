package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// ComposeMachine is one machine of a composition.
type ComposeMachine struct {
	Name        string // the file it came from (text output only)
	ModelHash   string // "" for an invalid machine
	States      int
	Transitions int
	Variables   []string // declared variable names, for the sharing reminder
}

// ComposeReport is the logicprobe/compose/v1 report (docs/reports.md).
// Unlike verify, ok means "no error findings".
type ComposeReport struct {
	Valid           bool // every machine valid and at least two of them
	HashSpec        string
	Machines        []ComposeMachine
	MetadataKeys    []string
	Rendezvous      []string // text output only
	CompositeStates int
	Truncated       bool
	MaxStates       int
	MaxFindings     int // findings listed per check (0: all)
	Checks          []Check
}

// Verdict returns the verdict and its reason.
func (r *ComposeReport) Verdict() (string, string) { return Verdict(r.Checks) }

// NextSteps derives the nextSteps lines: never empty, a pure function of
// the checks and the machines.
func (r *ComposeReport) NextSteps() []string {
	const keep = "Keep this report as the baseline for the next change (--baseline)"
	if !r.Valid {
		var out []string
		for _, c := range r.Checks {
			if c.ID == "MODEL" && len(c.Findings) > 0 {
				out = append(out, fmt.Sprintf("Fix the %d model validation error(s) first (first: %s)", len(c.Findings), c.Findings[0].Message))
			}
		}
		return append(out, keep)
	}
	var out, failing, warnCodes []string
	for i := range r.Checks {
		if r.Checks[i].Count(Error) > 0 { // warnings only: the Review line below
			failing = append(failing, r.Checks[i].ID+" "+r.Checks[i].Name)
		}
		for _, f := range r.Checks[i].Findings {
			if f.Severity == Warning && !slices.Contains(warnCodes, f.Code) {
				warnCodes = append(warnCodes, f.Code)
			}
		}
	}
	if len(failing) > 0 {
		out = append(out, "Resolve the failing checks first: "+strings.Join(failing, ", "))
	}
	if len(warnCodes) > 0 {
		slices.Sort(warnCodes)
		out = append(out, fmt.Sprintf("Review the warning findings (%s) and fix the model or record why each is acceptable", strings.Join(warnCodes, ", ")))
	}
	if r.Truncated {
		out = append(out, fmt.Sprintf("Raise maxStates (now %d) and re-run: the product search stopped at the cap, so absence of deadlock is not proven", r.MaxStates))
	}
	if line := r.sharingLine(); line != "" {
		out = append(out, line)
	}
	return append(out, keep)
}

// sharingLine names the variables of each machine when two or more
// machines declare some: they are private, never shared.
func (r *ComposeReport) sharingLine() string {
	var parts []string
	for i, m := range r.Machines {
		if len(m.Variables) > 0 {
			parts = append(parts, fmt.Sprintf("machine %d: %s", i, strings.Join(m.Variables, ", ")))
		}
	}
	if len(parts) < 2 {
		return ""
	}
	return fmt.Sprintf("Machines do not share variables (%s); model a shared condition inside one machine or as a rendezvous", strings.Join(parts, "; "))
}

// JSON renders the report with keys in contract order.
func (r *ComposeReport) JSON() Obj {
	verdict, reason := r.Verdict()
	errs, warns := Counts(r.Checks)
	hashes := make([]string, len(r.Machines))
	machines := make([]Obj, len(r.Machines))
	for i, m := range r.Machines {
		hashes[i] = m.ModelHash
		machines[i] = Obj{{"modelHash", m.ModelHash}, {"states", m.States}, {"transitions", m.Transitions}}
	}
	o := Obj{
		{"ok", errs == 0}, {"ran", true}, {"verdict", verdict}, {"verdictReason", reason},
		{"schema", ComposeSchema}, {"schemaVersion", 1}, {"hashSpec", r.HashSpec},
		{"hashes", Obj{{"hashSpec", r.HashSpec}, {"machines", hashes}}},
	}
	if len(r.MetadataKeys) > 0 {
		o = append(o, KV{"metadataKeys", r.MetadataKeys})
	}
	summary := Obj{{"machineCount", len(r.Machines)}, {"machines", machines}, {"compositeStates", r.CompositeStates}, {"errors", errs}, {"warnings", warns}}
	if r.Valid {
		summary = append(summary, KV{"truncated", r.Truncated})
		summary = append(summary, KV{"maxFindings", r.MaxFindings}, KV{"unlistedFindings", UnlistedTotal(r.Checks)})
	}
	checks := make([]Obj, len(r.Checks))
	for i := range r.Checks {
		checks[i] = r.Checks[i].JSON()
	}
	return append(o, KV{"summary", summary}, KV{"checks", checks}, KV{"nextSteps", r.NextSteps()})
}

// WriteComposeText renders a compose report for a person: the verdict,
// the machines, then each finding with its composite path drawn step by
// step (naming the machines that moved) and, for a deadlock, why each
// machine is blocked.
func WriteComposeText(w io.Writer, r *ComposeReport, st Style) error {
	var b strings.Builder
	verdict, reason := r.Verdict()
	fmt.Fprintf(&b, "%s  compose %d machines\n  %s\n", st.verdict(verdict), len(r.Machines), reason)
	for i, m := range r.Machines {
		fmt.Fprintf(&b, "  machine %d  %s", i, m.Name)
		if m.ModelHash != "" {
			fmt.Fprintf(&b, " (%d states, %d transitions, model %s)", m.States, m.Transitions, m.ModelHash)
		}
		b.WriteString("\n")
	}
	if r.Valid {
		rdv := "none"
		if len(r.Rendezvous) > 0 {
			rdv = strings.Join(r.Rendezvous, ", ")
		}
		fmt.Fprintf(&b, "  rendezvous: %s; %d composite states explored (hash spec %s)", rdv, r.CompositeStates, r.HashSpec)
		if r.Truncated {
			fmt.Fprintf(&b, ", %s", st.paint("35", fmt.Sprintf("search stopped at the cap of %d composite states", r.MaxStates)))
		}
		b.WriteString("\n")
	}
	passed := writeChecks(&b, r.Checks, st, func(f *Finding) {
		fmt.Fprintf(&b, "  %s %s: %s\n", st.severity(f), f.Code, f.Message)
		writeCompositePath(&b, f)
		writeCensus(&b, f)
	})
	writePassed(&b, passed, st)
	writeNextSteps(&b, r.NextSteps())
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCompositePath draws a composite path one step per line, with the
// machines that moved (from evidence.steps).
func writeCompositePath(b *strings.Builder, f *Finding) {
	if !f.HasPath && len(f.Path) == 0 {
		return
	}
	if len(f.Path) == 0 {
		b.WriteString("      path: (the initial composite state)\n")
		return
	}
	steps, _ := f.Evidence.Get("steps").([]Obj)
	fmt.Fprintf(b, "      path: %s\n", f.Path[0].From)
	for k, s := range f.Path {
		who := ""
		if k < len(steps) {
			if ms, ok := steps[k].Get("machines").([]int); ok {
				who = " " + machineList(ms)
			}
		}
		fmt.Fprintf(b, "        %d. %s%s -> %s\n", k+1, s.Event, who, s.To)
	}
}

func machineList(ms []int) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprint(m)
	}
	if len(ms) == 1 {
		return "(machine " + parts[0] + ")"
	}
	return "(machines " + strings.Join(parts, ", ") + ")"
}

// writeCensus prints, for a deadlock, each machine's state and why each of
// its events is blocked (from evidence.perMachine).
func writeCensus(b *strings.Builder, f *Finding) {
	per, _ := f.Evidence.Get("perMachine").([]Obj)
	for _, m := range per {
		term := ""
		if t, _ := m.Get("terminal").(bool); t {
			term = ", terminal"
		}
		var blocked []string
		if bs, ok := m.Get("blocked").([]Obj); ok {
			for _, x := range bs {
				blocked = append(blocked, fmt.Sprintf("%v: %v", x.Get("event"), x.Get("reason")))
			}
		}
		if len(blocked) == 0 {
			blocked = []string{"no events"}
		}
		fmt.Fprintf(b, "      machine %v in %q%s — %s\n", m.Get("index"), m.Get("state"), term, strings.Join(blocked, "; "))
	}
}

// VerdictLabel is the verdict as the text reports print it (PASS, PASS
// WITH FINDINGS, FAIL), coloured when the style says so.
func (s Style) VerdictLabel(v string) string { return s.verdict(v) }
