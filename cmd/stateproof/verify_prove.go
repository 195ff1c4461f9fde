package main

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/prove"
	"github.com/stateproof/stateproof/internal/report"
)

// proveUndecided hands every invariant that S7 left undecided at its cap
// to the inductive prover. A proved invariant's S7_UNDECIDED finding
// becomes an info finding S7_PROVED_BY_INDUCTION carrying the method and
// the certificate, and its A7_UNDECIDED (no counterexample found before the
// cap) becomes A7_PROVED_BY_INDUCTION (none exists); anything else is left
// exactly as verify reported it.
func proveUndecided(rep *report.VerifyReport, m *jsonmodel.Model, file string) error {
	provedIDs := map[string]string{} // invariant -> method
	defer markA7(rep, provedIDs)
	var fm *frontend.Model
	for ci := range rep.Checks {
		c := &rep.Checks[ci]
		if c.ID != "S7" {
			continue
		}
		proved := 0
		for fi := range c.Findings {
			f := &c.Findings[fi]
			id, ok := f.Evidence.Get("invariant").(string)
			if f.Code != "S7_UNDECIDED" || !ok {
				continue
			}
			if fm == nil {
				fm = jsonfront.FromModel(m, file) // lowered once, only when some invariant needs proving
			}
			p, err := prove.ModelProblem(fm, id)
			if err != nil {
				return err
			}
			if len(p.Props) == 0 {
				continue
			}
			res, err := prove.Prove(p, prove.Options{})
			if err != nil {
				return fmt.Errorf("proving invariant %q: %w", id, err)
			}
			if res.Verdict != "proved" {
				continue
			}
			proved++
			provedIDs[id] = res.Props[0].Method
			var cert []any
			for _, r := range res.Certificate {
				cert = append(cert, r.Node+": "+r.RSC)
			}
			f.Code, f.Severity = "S7_PROVED_BY_INDUCTION", report.Info
			f.Message = fmt.Sprintf("Invariant %q proved by induction (%s) for every execution; the explicit search stopped at its cap", id, res.Props[0].Method)
			f.Evidence = append(f.Evidence, report.KV{Key: "method", Value: res.Props[0].Method}, report.KV{Key: "certificate", Value: cert})
		}
		if proved > 0 {
			c.Detail += fmt.Sprintf("; %d proved by induction (stateproof prove)", proved)
		}
	}
	return nil
}

// markA7 turns the A7_UNDECIDED finding of every proved invariant into an
// info finding: the prover showed that no counterexample exists.
func markA7(rep *report.VerifyReport, proved map[string]string) {
	for ci := range rep.Checks {
		c := &rep.Checks[ci]
		if c.ID != "A7" {
			continue
		}
		n := 0
		for fi := range c.Findings {
			f := &c.Findings[fi]
			id, _ := f.Evidence.Get("invariant").(string)
			method, ok := proved[id]
			if f.Code != "A7_UNDECIDED" || !ok {
				continue
			}
			n++
			f.Code, f.Severity = "A7_PROVED_BY_INDUCTION", report.Info
			f.Message = fmt.Sprintf("Invariant %q has no counterexample: proved by induction (%s)", id, method)
		}
		if n > 0 {
			c.Detail += fmt.Sprintf("; %d proved by induction (stateproof prove)", n)
		}
	}
}
