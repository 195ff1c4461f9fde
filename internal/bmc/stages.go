package bmc

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/z3"
)

// allStages is the full scenario S_assume.
func allStages() []smt.Stage { return []smt.Stage{smt.Kernel, smt.Init, smt.Assumption} }

// checkStages checks the groups of stages, plus extra (the objective or
// the tail observation) when not nil.
//
// The tracked shape selects groups by their activation literals on the
// encoding's one incremental solver, as explanations need. The lean shape
// asserts what the check needs into a solver of its own, with nothing to
// retract, so that Z3 simplifies and preprocesses the whole formula before
// searching, as it does for a file with one check-sat; a formula outside
// linear integer arithmetic, or one of a small bound, is checked under an
// assumption on Z3's incremental core instead, which honours a timeout and
// has less to set up. With incremental (--shortest)
// the lean shape keeps one solver across bounds instead: the groups stay
// asserted as the bound grows, and each bound's objective is pushed and
// popped.
func (s *session) checkStages(stages []smt.Stage, extra *z3.Term, incremental bool) (checkResult, error) {
	if extra != nil || incremental {
		return s.checkGroups(stages, extra, incremental)
	}
	// A scenario alone does not depend on the query: a decided one is
	// remembered for the next query over the same groups (SolveAll). An
	// undecided one is not, so that every query has its own try.
	key := scenarioKey{fmt.Sprint(stages), len(s.p.enc.Groups)}
	if c, ok := s.p.scenarios[key]; ok {
		return c, nil
	}
	c, err := s.checkGroups(stages, nil, false)
	if err == nil && c.ran && (c.status == "sat" || c.status == "unsat") {
		if s.p.scenarios == nil {
			s.p.scenarios = map[scenarioKey]checkResult{}
		}
		s.p.scenarios[key] = c
	}
	return c, err
}

// checkGroups is checkStages without the memory of scenarios.
func (s *session) checkGroups(stages []smt.Stage, extra *z3.Term, incremental bool) (checkResult, error) {
	enc := s.p.enc
	if enc.Solver != nil { // tracked
		lits := enc.Lits(stages...)
		if extra != nil {
			b := s.p.b
			lit := b.Fresh(fmt.Sprintf("check!%d", len(enc.Groups)))
			if err := enc.Solver.Assert(b.Implies(lit, extra)); err != nil {
				return checkResult{}, err
			}
			lits = append(lits, lit)
		}
		return s.check(enc.Solver, lits)
	}
	if incremental {
		return s.checkIncremental(extra)
	}
	solver, err := enc.Ctx().NewSolver()
	if err != nil {
		return checkResult{}, fmt.Errorf("bmc: creating a solver: %w", err)
	}
	// Below oneShotBound Z3's one-shot preprocessing costs more than it
	// saves (measured on bench/bmc-vs-z3.sh), so small formulas take the
	// incremental core too.
	const oneShotBound = 32
	linear := !enc.BeyondLIA() && enc.Bound() >= oneShotBound
	if linear {
		if err := solver.SetParam("ignore_solver1", false); err != nil {
			return checkResult{}, err
		}
	}
	for _, g := range enc.Groups {
		if slices.Contains(stages, g.Stage) {
			if err := solver.Assert(g.Formula); err != nil {
				return checkResult{}, fmt.Errorf("bmc: asserting %s: %w", g.ID, err)
			}
		}
	}
	var lits []*z3.Term
	if !linear {
		// Checked under an assumption, as the tracked shape is: that path
		// is known to stop at the budget on non-linear formulas, and it
		// starts faster.
		lit := s.p.b.Fresh("check!")
		lits = append(lits, lit)
		if extra != nil {
			extra = s.p.b.Implies(lit, extra)
		}
	}
	if extra != nil {
		if err := solver.Assert(extra); err != nil {
			return checkResult{}, fmt.Errorf("bmc: asserting the objective: %w", err)
		}
	}
	return s.check(solver, lits)
}

// checkIncremental checks every group and extra on the session's
// incremental solver.
func (s *session) checkIncremental(extra *z3.Term) (checkResult, error) {
	enc := s.p.enc
	if s.inc == nil {
		var err error
		if s.inc, err = enc.Ctx().NewSolver(); err != nil {
			return checkResult{}, fmt.Errorf("bmc: creating a solver: %w", err)
		}
	}
	if s.incPushed {
		if err := s.inc.Pop(1); err != nil {
			return checkResult{}, err
		}
		s.incPushed = false
	}
	for ; s.incGroups < len(enc.Groups); s.incGroups++ {
		g := enc.Groups[s.incGroups]
		if err := s.inc.Assert(g.Formula); err != nil {
			return checkResult{}, fmt.Errorf("bmc: asserting %s: %w", g.ID, err)
		}
	}
	if extra != nil {
		if err := s.inc.Push(); err != nil {
			return checkResult{}, err
		}
		s.incPushed = true
		if err := s.inc.Assert(extra); err != nil {
			return checkResult{}, fmt.Errorf("bmc: asserting the objective: %w", err)
		}
	}
	return s.check(s.inc, nil)
}
