package report

import (
	"fmt"
	"slices"
	"strings"
)

// Severities of findings.
const (
	Error   = "error"
	Warning = "warning"
	Info    = "info"
)

// Verdicts.
const (
	Pass             = "pass"
	PassWithFindings = "pass_with_findings"
	Fail             = "fail"
)

// Schema identifiers. They keep the seed's names: they name the contract,
// and existing consumers branch on them.
const (
	VerifySchema   = "logicprobe/verify/v1"
	ComposeSchema  = "logicprobe/compose/v1"
	BaselineSchema = "logicprobe/baseline/v1"
)

// Step is one transition of a counterexample path.
type Step struct {
	From, Event, To string
}

// Finding is one result of a check.
type Finding struct {
	Code     string
	Severity string
	Message  string
	Detail   string
	Target   any // string or []string; nil when absent
	Evidence Obj
	Path     []Step
	HasPath  bool // an empty Path with HasPath is "the initial runtime is the witness"
}

// Undecided reports whether the finding says a search stopped at its cap.
func (f *Finding) Undecided() bool { return strings.HasSuffix(f.Code, "_UNDECIDED") }

// JSON renders the finding with keys in contract order.
func (f *Finding) JSON() Obj {
	o := Obj{{"code", f.Code}, {"severity", f.Severity}, {"message", f.Message}}
	if f.Detail != "" {
		o = append(o, KV{"detail", f.Detail})
	}
	if f.Target != nil {
		o = append(o, KV{"target", f.Target})
	}
	if f.Evidence != nil {
		o = append(o, KV{"evidence", f.Evidence})
	}
	if f.HasPath || len(f.Path) > 0 {
		o = append(o, KV{"path", pathJSON(f.Path)})
	}
	return o
}

func pathJSON(p []Step) []Obj {
	out := make([]Obj, len(p))
	for i, s := range p {
		out[i] = Obj{{"from", s.From}, {"event", s.Event}, {"to", s.To}}
	}
	return out
}

// Check is the result of one check.
type Check struct {
	ID       string
	Name     string
	Detail   string // the one-line summary, before the severity counts
	Findings []Finding
}

// Status is "pass" only when the check has no findings of any severity.
func (c *Check) Status() string {
	if len(c.Findings) == 0 {
		return Pass
	}
	return Fail
}

// Count returns the number of findings with the given severity.
func (c *Check) Count(severity string) int {
	n := 0
	for _, f := range c.Findings {
		if f.Severity == severity {
			n++
		}
	}
	return n
}

// FullDetail is the detail with the severity counts appended (§6.1).
func (c *Check) FullDetail() string {
	e, w := c.Count(Error), c.Count(Warning)
	switch {
	case e > 0:
		return fmt.Sprintf("%s (%d errors, %d warnings)", c.Detail, e, w)
	case w > 0:
		return fmt.Sprintf("%s (%d warnings)", c.Detail, w)
	}
	return c.Detail
}

// JSON renders the check.
func (c *Check) JSON() Obj {
	fs := make([]Obj, len(c.Findings))
	for i := range c.Findings {
		fs[i] = c.Findings[i].JSON()
	}
	return Obj{{"id", c.ID}, {"name", c.Name}, {"status", c.Status()}, {"detail", c.FullDetail()}, {"findings", fs}}
}

// Verdict derives the verdict and its reason from checks (§11.2). Info
// findings never count.
func Verdict(checks []Check) (verdict, reason string) {
	errs, warns := 0, 0
	first := ""
	for i := range checks {
		for _, f := range checks[i].Findings {
			switch f.Severity {
			case Error:
				if errs == 0 {
					first = f.Code
				}
				errs++
			case Warning:
				warns++
			}
		}
	}
	switch {
	case errs > 0:
		return Fail, fmt.Sprintf("%d error finding(s) (first: %s)", errs, first)
	case warns > 0:
		reason = fmt.Sprintf("no error findings; %d warning finding(s)", warns)
		if n := UndecidedChecks(checks); n > 0 {
			reason += fmt.Sprintf("; %d %s not decided", n, map[bool]string{true: "check", false: "checks"}[n == 1])
		}
		return PassWithFindings, reason
	}
	return Pass, "no error or warning findings"
}

// UndecidedChecks is the number of checks with an undecided finding: a
// search stopped at its cap, so the check neither passed nor failed. The
// CLI exits 3 when no error finding exists and this is not zero.
func UndecidedChecks(checks []Check) int {
	n := 0
	for i := range checks {
		if slices.ContainsFunc(checks[i].Findings, func(f Finding) bool { return f.Undecided() }) {
			n++
		}
	}
	return n
}

// Counts returns the numbers of error and warning findings.
func Counts(checks []Check) (errs, warns int) {
	for i := range checks {
		errs += checks[i].Count(Error)
		warns += checks[i].Count(Warning)
	}
	return errs, warns
}

// undecidedCodes returns the sorted distinct codes of undecided findings.
func undecidedCodes(checks []Check) []string {
	var codes []string
	for i := range checks {
		for _, f := range checks[i].Findings {
			if f.Undecided() && !slices.Contains(codes, f.Code) {
				codes = append(codes, f.Code)
			}
		}
	}
	slices.Sort(codes)
	return codes
}
