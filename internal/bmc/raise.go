package bmc

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/z3"
)

// raiseCheck re-decides a verdict that rests on the absence of a trace
// (a property that holds, a goal with no witness, a scenario without a
// run) when the model can raise
// a runtime error. Traces never pass through an error step, so a run that
// raises within the bound is missing from the search: whatever its frames
// did before the error, the main check could not see them. When some run
// of the scenario reaches a step that raises, the query is undecided, with
// the step and the raising site as its reason (issue 29, docs/fcstm.md
// "Runtime errors in bmc"). A verdict found on a trace (a witness, a
// counterexample) is a real run and stays.
func (s *session) raiseCheck(r *Result) error {
	p := s.p
	// A scenario without a run stays scenario_infeasible (undecided; its
	// explanation names the raising sites) and only gains the diagnostic:
	// with every run raising (a model nested deeper than the runtime can
	// run) no trace exists at all.
	infeasible := r.Outcome == "scenario_infeasible"
	if (r.Satisfied == nil && !infeasible) || r.Status != "unsat" || len(r.ErrorSites) == 0 {
		return nil
	}
	enc := p.enc
	b := p.b
	n := enc.Bound()
	hits := make([]*z3.Term, n)
	for k := 0; k < n; k++ {
		hits[k] = b.And(append(prefixGroups(enc.Groups, k), enc.Raises[k].Cond)...)
	}
	res, err := s.checkGroups([]smt.Stage{smt.Init}, b.Or(hits...), false)
	if err != nil {
		return err
	}
	switch {
	case infeasible && res.status != "sat":
		return nil // undecided already; nothing to add
	case !res.ran:
		r.Status, r.Reason = "timeout", "deadline exhausted before checking whether a step raises a runtime error"
		r.Diagnostics = append(r.Diagnostics, "timeout:deadline_exhausted_before_raise_check")
	case res.status == "unsat":
		return nil
	case res.status == "sat":
		step, site, err := s.raisingStep(hits)
		if err != nil {
			return err
		}
		r.RaiseSite = site
		if infeasible {
			r.Diagnostics = append(r.Diagnostics, "runtime_error:raises_within_bound:"+site)
			return nil
		}
		r.Status = "unknown"
		r.Reason = fmt.Sprintf("a run raises a runtime error at step %d (%s) within the bound; no trace shows a run that raises, so the property is not decided", step, site)
		r.Diagnostics = append(r.Diagnostics, "runtime_error:raises_within_bound:"+site)
	default:
		r.Status = res.status
		r.Reason = "whether a step raises a runtime error is not decided: " + res.reason
		r.Diagnostics = append(r.Diagnostics, "runtime_error:raise_check_"+res.status)
	}
	r.Trace, r.PropertyFrame = nil, nil
	s.finish(r)
	return nil
}

// prefixGroups are the groups every run that reaches step k meets: the
// domains of frames 0..k, the step relations before k and the
// assumptions on frames and steps up to k (the initial groups are the
// check's stage). Assumptions about later frames do not bind a run that
// raises at k, so they are left out.
func prefixGroups(groups []*smt.Group, k int) []*z3.Term {
	var out []*z3.Term
	for _, g := range groups {
		switch {
		case g.Stage == smt.Kernel && g.Role == "transition_rule":
			if g.Frame < k {
				out = append(out, g.Formula)
			}
		case g.Stage == smt.Kernel || g.Stage == smt.Assumption:
			if g.Frame >= 0 && g.Frame <= k {
				out = append(out, g.Formula)
			}
		}
	}
	return out
}

// raisingStep reads the first raising step of the raise check's model and
// where it raises.
func (s *session) raisingStep(hits []*z3.Term) (int, string, error) {
	m, err := s.solver.Model()
	if err != nil {
		return 0, "", fmt.Errorf("bmc: reading the model: %w", err)
	}
	d := decoder{p: s.p, m: m}
	for k, h := range hits {
		if hit, err := d.bool(h); err != nil || !hit {
			if err != nil {
				return 0, "", err
			}
			continue
		}
		for _, rc := range s.p.enc.Raises[k].Cases {
			if hit, err := d.bool(rc.Ante); err != nil {
				return 0, "", err
			} else if hit {
				return k, rc.Case.Src.String(), nil
			}
		}
		return k, "an error case", nil
	}
	return 0, "", fmt.Errorf("bmc: the raise check's model raises at no step")
}
