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
	// NotDecided: no error finding, but some check stopped at its cap, so
	// the run claims no pass (docs/reports.md).
	NotDecided = "not_decided"
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
	// Unlisted counts the findings past the listing limit: they count in
	// the status, the detail and the verdict, but are not listed, so a
	// model with millions of findings still gives a readable report.
	Unlisted Unlisted
}

// Unlisted counts findings that were found but not listed, by severity.
type Unlisted struct {
	Errors, Warnings, Infos int
	FirstError              string // code of the first unlisted error
}

// Add counts one unlisted finding.
func (u *Unlisted) Add(code, severity string) {
	switch severity {
	case Error:
		if u.Errors == 0 {
			u.FirstError = code
		}
		u.Errors++
	case Warning:
		u.Warnings++
	default:
		u.Infos++
	}
}

// Total is the number of unlisted findings.
func (u *Unlisted) Total() int { return u.Errors + u.Warnings + u.Infos }

// Limit keeps the first max findings listed and counts the others as
// unlisted; max <= 0 lists all.
func (c *Check) Limit(max int) {
	if max <= 0 || len(c.Findings) <= max {
		return
	}
	for _, f := range c.Findings[max:] {
		c.Unlisted.Add(f.Code, f.Severity)
	}
	c.Findings = slices.Clip(c.Findings[:max])
}

// Status is "pass" only when the check has no findings of any severity.
func (c *Check) Status() string {
	if len(c.Findings) == 0 && c.Unlisted.Total() == 0 {
		return Pass
	}
	return Fail
}

// Count returns the number of findings with the given severity, listed or
// not.
func (c *Check) Count(severity string) int {
	n := 0
	for _, f := range c.Findings {
		if f.Severity == severity {
			n++
		}
	}
	switch severity {
	case Error:
		n += c.Unlisted.Errors
	case Warning:
		n += c.Unlisted.Warnings
	case Info:
		n += c.Unlisted.Infos
	}
	return n
}

// FullDetail is the detail with the severity counts appended, and
// how many are listed when not all are.
func (c *Check) FullDetail() string {
	e, w := c.Count(Error), c.Count(Warning)
	listed := ""
	if n := c.Unlisted.Total(); n > 0 {
		listed = fmt.Sprintf("; %d of %d findings listed", len(c.Findings), len(c.Findings)+n)
	}
	switch {
	case e > 0:
		return fmt.Sprintf("%s (%d errors, %d warnings%s)", c.Detail, e, w, listed)
	case w > 0:
		return fmt.Sprintf("%s (%d warnings%s)", c.Detail, w, listed)
	case listed != "":
		return fmt.Sprintf("%s (%s)", c.Detail, listed[2:])
	}
	return c.Detail
}

// JSON renders the check; "unlisted" appears only when findings were left
// out of the listing.
func (c *Check) JSON() Obj {
	fs := make([]Obj, len(c.Findings))
	for i := range c.Findings {
		fs[i] = c.Findings[i].JSON()
	}
	o := Obj{{"id", c.ID}, {"name", c.Name}, {"status", c.Status()}, {"detail", c.FullDetail()}, {"findings", fs}}
	if n := c.Unlisted.Total(); n > 0 {
		o = append(o, KV{"unlisted", n})
	}
	return o
}

// UnlistedTotal is the number of findings of checks left out of the
// listing.
func UnlistedTotal(checks []Check) int {
	n := 0
	for i := range checks {
		n += checks[i].Unlisted.Total()
	}
	return n
}

// Verdict derives the verdict and its reason from checks. Info
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
		u := &checks[i].Unlisted
		if errs == 0 && u.Errors > 0 {
			first = u.FirstError
		}
		errs += u.Errors
		warns += u.Warnings
	}
	switch {
	case errs > 0:
		return Fail, fmt.Sprintf("%d error finding(s) (first: %s)", errs, first)
	case warns > 0:
		reason = fmt.Sprintf("no error findings; %d warning finding(s)", warns)
		if n := UndecidedChecks(checks); n > 0 {
			reason += fmt.Sprintf("; %d %s not decided", n, map[bool]string{true: "check", false: "checks"}[n == 1])
			return NotDecided, reason
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
