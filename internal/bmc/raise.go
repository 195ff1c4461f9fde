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
	// A scenario without a run stays scenario_infeasible (undecided; its
	// explanation names the raising sites) and only gains the diagnostic:
	// with every run raising (a model nested deeper than the runtime can
	// run) no trace exists at all.
	infeasible := r.Outcome == "scenario_infeasible"
	if (r.Satisfied == nil && !infeasible) || r.Status != "unsat" || len(r.ErrorSites) == 0 {
		return nil
	}
	res, step, err := s.firstRaise()
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
		site, err := s.raisingSite(step)
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

// firstRaise looks for the first step k at which a run of the scenario
// raises: the initial groups, then step by step the groups every run that
// reaches step k meets (the domains of frames 0..k, the step relations
// before k, the assumptions on frames and steps up to k) and "step k
// raises". Assumptions about later frames do not bind a run that raises
// at k, so they are left out. One incremental solver carries the prefix
// from one step to the next, each step's question under an assumption
// literal: a single disjunction over every k was several times slower
// than the primary check. It returns the deciding check (sat at step k,
// unsat when no step raises, or the first undecided one).
func (s *session) firstRaise() (checkResult, int, error) {
	p := s.p
	enc := p.enc
	solver, err := enc.Ctx().NewSolver(s.arithParams()...)
	if err != nil {
		return checkResult{}, 0, fmt.Errorf("bmc: creating a solver: %w", err)
	}
	if err := assertStages(solver, enc.Groups, []smt.Stage{smt.Init}); err != nil {
		return checkResult{}, 0, err
	}
	last := checkResult{status: "unsat", ran: true}
	for k := 0; k < enc.Bound(); k++ {
		for _, g := range enc.Groups {
			if !inPrefix(g, k) {
				continue
			}
			if err := solver.Assert(g.Formula); err != nil {
				return checkResult{}, 0, fmt.Errorf("bmc: asserting %s: %w", g.ID, err)
			}
		}
		if len(enc.Raises[k].Cases) == 0 {
			continue
		}
		s.nlits++
		lit := p.b.Fresh(fmt.Sprintf("raise!%d", s.nlits))
		if err := solver.Assert(p.b.Implies(lit, enc.Raises[k].Cond)); err != nil {
			return checkResult{}, 0, fmt.Errorf("bmc: asserting the raise of step %d: %w", k, err)
		}
		res, err := s.check(solver, []*z3.Term{lit})
		if err != nil || !res.ran || res.status != "unsat" {
			return res, k, err
		}
		last.elapsed += res.elapsed
	}
	return last, 0, nil
}

// inPrefix reports whether g is one of the groups that enter the raise
// check's prefix at step k (and not before).
func inPrefix(g *smt.Group, k int) bool {
	switch {
	case g.Stage == smt.Kernel && g.Role == "transition_rule":
		return g.Frame == k-1
	case g.Stage == smt.Kernel || g.Stage == smt.Assumption:
		return g.Frame == k
	}
	return false
}

// raisingSite reads, in the raise check's model, which error case of
// step k is taken.
func (s *session) raisingSite(k int) (string, error) {
	m, err := s.solver.Model()
	if err != nil {
		return "", fmt.Errorf("bmc: reading the model: %w", err)
	}
	d := decoder{p: s.p, m: m}
	for _, rc := range s.p.enc.Raises[k].Cases {
		if hit, err := d.bool(rc.Ante); err != nil {
			return "", err
		} else if hit {
			return rc.Case.Src.String(), nil
		}
	}
	return "an error case", nil
}
