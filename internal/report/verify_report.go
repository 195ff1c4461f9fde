package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// VerifyReport is the logicprobe/verify/v1 report.
type VerifyReport struct {
	Valid        bool // false: model validation failed (ok:false)
	HashSpec     string
	ModelHash    string
	ExtraHashes  Obj // beforeModelHash/afterModelHash for a comparison
	MetadataKeys []string
	// NarrativeCoverage is [dimension, "a/b"] triples in contract order;
	// nil when the model has no narrative.
	NarrativeCoverage [][2]string
	States            int
	Transitions       int
	Truncated         bool
	// StoppedBy names the limits that stopped the searches of a truncated
	// report, as capKinds ("maxStates", "maxDisk", "memory", …) in the
	// order met; the text header names them. Not in the JSON: each
	// undecided finding's evidence already carries its capKind.
	StoppedBy     []string
	MaxStates     int
	MaxFindings   int // findings listed per check (0: all)
	Checks        []Check
	Findings      []Finding // outside any check (NARRATIVE_PARTIAL)
	Narrative     *jsonvalue.Value
	Comparison    Obj
	CoverageNotes []string
	HasBefore     bool
	// BeforeInvalid: the BEFORE model failed validation, so ok is
	// false although the AFTER checks ran.
	BeforeInvalid bool
	// Invalid-model extras: the indexes of invariants missing a description.
	MissingDescription []int
	// FinalStep replaces the last next step (the advice to compare with a
	// BEFORE model) for front ends without comparisons; empty keeps it.
	FinalStep string
	// Queries are the answers to the FBMCQ queries of verify -q/--check
	// (FCSTM models); nil without a query, and then absent from the JSON.
	Queries []QueryAnswer
}

// ChecksRun is the number of checks that ran (0 for an invalid model).
func (r *VerifyReport) ChecksRun() int {
	if !r.Valid {
		return 0
	}
	n := 0
	for _, c := range r.Checks {
		if c.ID != "BEFORE_MODEL" {
			n++
		}
	}
	return n
}

// Verdict returns the verdict and its reason.
func (r *VerifyReport) Verdict() (string, string) { return Verdict(r.Checks) }

// NextSteps derives the nextSteps lines: never empty, and a pure
// function of the check results.
func (r *VerifyReport) NextSteps() []string {
	regress := "Re-run with beforeModel/stateMapping after the change to check for regressions (D1-D4)"
	if r.HasBefore {
		regress = "Keep this report as the baseline for the next change (--baseline)"
	}
	if r.FinalStep != "" {
		regress = r.FinalStep
	}
	if !r.Valid {
		var out []string
		for _, c := range r.Checks {
			if c.ID == "MODEL" && len(c.Findings) > 0 {
				out = append(out, fmt.Sprintf("Fix the %d model validation error(s) first (first: %s)", len(c.Findings), c.Findings[0].Message))
			}
		}
		for _, i := range r.MissingDescription {
			out = append(out, fmt.Sprintf("Add a \"description\" string to invariants[%d]: it is echoed into findings and is part of the model hash", i))
		}
		return append(out, regress)
	}
	var out []string
	var failing []string
	for i := range r.Checks {
		if r.Checks[i].Count(Error) > 0 { // warnings only: the Review line below
			failing = append(failing, r.Checks[i].ID+" "+r.Checks[i].Name)
		}
	}
	if len(failing) > 0 {
		out = append(out, "Resolve the failing checks first: "+strings.Join(failing, ", "))
	}
	var warnCodes []string
	for i := range r.Checks {
		for _, f := range r.Checks[i].Findings {
			if f.Severity == Warning && !slices.Contains(warnCodes, f.Code) {
				warnCodes = append(warnCodes, f.Code)
			}
		}
	}
	if len(warnCodes) > 0 {
		slices.Sort(warnCodes)
		out = append(out, fmt.Sprintf("Review the warning findings (%s) and fix the model or record why each is acceptable", strings.Join(warnCodes, ", ")))
	}
	out = append(out, undecidedSteps(r.Checks, r.MaxStates)...)
	if r.NarrativeCoverage != nil && !coverageComplete(r.NarrativeCoverage) {
		out = append(out, "Complete the narrative ("+coverageText(r.NarrativeCoverage)+")")
	}
	return append(out, regress)
}

func coverageComplete(c [][2]string) bool {
	for _, d := range c {
		a, b, _ := strings.Cut(d[1], "/")
		if a != b {
			return false
		}
	}
	return true
}

func coverageText(c [][2]string) string {
	parts := make([]string, len(c))
	for i, d := range c {
		parts[i] = d[0] + " " + d[1]
	}
	return strings.Join(parts, ", ")
}

// JSON renders the report with keys in contract order.
func (r *VerifyReport) JSON() Obj {
	verdict, reason := r.Verdict()
	hashes := Obj{{"hashSpec", r.HashSpec}, {"modelHash", r.ModelHash}}
	hashes = append(hashes, r.ExtraHashes...)
	o := Obj{
		{"ok", r.Valid && !r.BeforeInvalid}, {"ran", true}, {"verdict", verdict}, {"verdictReason", reason},
		{"schema", VerifySchema}, {"schemaVersion", 1}, {"hashSpec", r.HashSpec},
		{"modelHash", r.ModelHash}, {"hashes", hashes},
	}
	if len(r.MetadataKeys) > 0 {
		o = append(o, KV{"metadataKeys", r.MetadataKeys})
	}
	if r.NarrativeCoverage != nil {
		cov := Obj{}
		for _, d := range r.NarrativeCoverage {
			cov = append(cov, KV{d[0], d[1]})
		}
		o = append(o, KV{"narrativeCoverage", cov})
	}
	errs, warns := Counts(r.Checks)
	summary := Obj{{"states", r.States}, {"transitions", r.Transitions}, {"errors", errs}, {"warnings", warns}, {"checksRun", r.ChecksRun()}}
	if r.Valid {
		summary = append(summary, KV{"truncated", r.Truncated})
		// errors and warnings above are exact totals; these say how many
		// findings the per-check listing limit left out.
		summary = append(summary, KV{"maxFindings", r.MaxFindings}, KV{"unlistedFindings", UnlistedTotal(r.Checks)})
	}
	o = append(o, KV{"summary", summary})
	checks := make([]Obj, len(r.Checks))
	for i := range r.Checks {
		checks[i] = r.Checks[i].JSON()
	}
	o = append(o, KV{"checks", checks})
	if r.Queries != nil {
		qs := make([]Obj, len(r.Queries))
		for i := range r.Queries {
			qs[i] = r.Queries[i].JSON()
		}
		o = append(o, KV{"queries", qs})
	}
	if len(r.Findings) > 0 {
		fs := make([]Obj, len(r.Findings))
		for i := range r.Findings {
			fs[i] = r.Findings[i].JSON()
		}
		o = append(o, KV{"findings", fs})
	}
	o = append(o, KV{"nextSteps", r.NextSteps()})
	if r.Narrative != nil {
		o = append(o, KV{"narrative", r.Narrative})
	}
	if r.Comparison != nil {
		o = append(o, KV{"comparison", r.Comparison})
	}
	if len(r.CoverageNotes) > 0 {
		o = append(o, KV{"coverageNotes", r.CoverageNotes})
	}
	return o
}

// Refusal is the report of a tool-level refusal: the tool did not
// run, so there is no verdict on the model.
type Refusal struct {
	Schema string
	Code   string // INPUT_UNREADABLE, INPUT_NOT_JSON, BAD_OPTION, BASELINE_INVALID
	Err    string
}

// JSON renders the refusal.
func (r *Refusal) JSON() Obj {
	return Obj{
		{"ok", false}, {"ran", false}, {"verdict", Fail},
		{"verdictReason", "the tool did not run: " + r.Err},
		{"schema", r.Schema}, {"errorCode", r.Code}, {"error", r.Err},
	}
}

// HashCheck is the answer of --hash-check.
type HashCheck struct {
	Checked   string
	Published [][2]string // spec, hash
}

// Matches lists the specs whose hash equals Checked.
func (h *HashCheck) Matches() []string {
	out := []string{}
	for _, p := range h.Published {
		if p[1] == h.Checked {
			out = append(out, p[0])
		}
	}
	return out
}

// JSON renders the answer; the spec whose hash is reported under
// hashSpec/modelHash is the newest published one (v1).
func (h *HashCheck) JSON() Obj {
	m := h.Matches()
	verdict, reason := Pass, "reproduced by "+strings.Join(m, ", ")
	if len(m) == 0 {
		verdict, reason = Fail, "no published hash spec reproduces "+h.Checked
	}
	pub := make([]Obj, len(h.Published))
	for i, p := range h.Published {
		pub[i] = Obj{{"hashSpec", p[0]}, {"modelHash", p[1]}}
	}
	last := h.Published[len(h.Published)-1]
	return Obj{
		{"ran", true}, {"verdict", verdict}, {"verdictReason", reason},
		{"checked", h.Checked}, {"matches", m},
		{"hashSpec", last[0]}, {"modelHash", last[1]}, {"published", pub},
	}
}
