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
// asserts the primary check of a linear formula of a large bound into a
// solver of its own, with nothing to retract, so that Z3 simplifies and
// preprocesses the whole formula before searching, as it does for a file
// with one check-sat; every other check runs under an assumption on Z3's
// incremental core (checkUnderAssumption), which honours a timeout and has
// less to set up. With incremental (--shortest) the lean shape keeps one
// solver across bounds instead: the groups stay asserted as the bound
// grows, and each bound's objective is pushed and popped.
func (s *session) checkStages(stages []smt.Stage, extra *z3.Term, incremental bool) (checkResult, error) {
	if extra != nil || incremental {
		return s.checkGroups(stages, extra, incremental)
	}
	return s.rememberScenario(stages, func() (checkResult, error) { return s.checkGroups(stages, nil, false) })
}

// rememberScenario returns the remembered result of the scenario of
// stages, or runs check and remembers it. A scenario alone does not depend
// on the query: a decided one is remembered for the next query over the
// same groups (SolveAll). An undecided one is not, so that every query has
// its own try.
func (s *session) rememberScenario(stages []smt.Stage, check func() (checkResult, error)) (checkResult, error) {
	key := scenarioKey{fmt.Sprint(stages), len(s.p.enc.Groups)}
	if c, ok := s.p.scenarios[key]; ok {
		return c, nil
	}
	c, err := check()
	if err == nil && c.ran && (c.status == "sat" || c.status == "unsat") {
		if s.p.scenarios == nil {
			s.p.scenarios = map[scenarioKey]checkResult{}
		}
		s.p.scenarios[key] = c
	}
	return c, err
}

// checkScenarioAfterUnsat checks the full scenario S after the primary
// check found S ∧ phi UNSAT. Since S ∧ phi has no model, S has one exactly
// when S ∧ ¬phi has, so the lean shape checks that instead: the same
// answer, and ¬phi (every frame misses the goal, or keeps the invariant)
// steers Z3 straight to a run where the bare scenario can cost it many
// conflicts (bench/bmc-vs-z3.sh, "none" rows). The tracked shape, which
// explanations read, checks S itself.
func (s *session) checkScenarioAfterUnsat(phi *z3.Term) (checkResult, error) {
	if s.p.enc.Solver != nil || phi == nil {
		return s.checkStages(allStages(), nil, false)
	}
	return s.rememberScenario(allStages(), func() (checkResult, error) {
		return s.checkUnderAssumption(allStages(), s.p.b.Not(phi))
	})
}

// checkGroups is checkStages without the memory of scenarios.
func (s *session) checkGroups(stages []smt.Stage, extra *z3.Term, incremental bool) (checkResult, error) {
	if s.abandoned {
		return checkResult{}, nil // the Z3 context is gone (see session.abandoned)
	}
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
	// Below oneShotBound Z3's one-shot preprocessing costs more than it
	// saves (measured on bench/bmc-vs-z3.sh: with the older arithmetic
	// core, see arithParams, the incremental core decides bound 40 in
	// 0.55–0.7× the time, bound 80 in 1.0–1.6×), so small formulas take
	// the incremental core too; so does a scenario alone (no extra),
	// which is a search for any run and gains nothing from preprocessing.
	const oneShotBound = 64
	if extra == nil || enc.BeyondLIA() || enc.Bound() < oneShotBound {
		return s.checkUnderAssumption(stages, extra)
	}
	return s.checkOneShot(stages, extra)
}

// checkOneShot asserts the groups of stages, and extra when not nil, into
// a solver of their own and checks with no assumption: Z3 then
// preprocesses the whole formula and picks a procedure for its logic. A
// non-linear formula always goes this way, since under an assumption (or
// after a push) Z3 runs its incremental core, which on one sqrt in a
// during block did not answer in 215 s where the non-linear procedure
// answers in 4 s (docs/fcstm.md, Known gaps, "Non-linear arithmetic").
func (s *session) checkOneShot(stages []smt.Stage, extra *z3.Term) (checkResult, error) {
	solver, err := s.p.enc.Ctx().NewDefaultSolver(s.arithParams()...)
	if err != nil {
		return checkResult{}, fmt.Errorf("bmc: creating a solver: %w", err)
	}
	if err := assertStages(solver, s.p.enc.Groups, stages); err != nil {
		return checkResult{}, err
	}
	if extra != nil {
		if err := solver.Assert(extra); err != nil {
			return checkResult{}, fmt.Errorf("bmc: asserting the objective: %w", err)
		}
	}
	return s.check(solver, nil)
}

// checkUnderAssumption checks the groups of stages, and extra when not
// nil, on Z3's incremental core. The groups of all stages share one solver
// per session, built on first use, where extra is asserted behind a fresh
// literal and assumed: the primary check and the feasibility check that
// follows an UNSAT one then pay for one solver and one internalisation of
// the unrolling, as a hand-written script with two check-sat commands
// would. That path is also known to stop at the budget on non-linear
// formulas. The localisation checks of fewer stages, rare, get a solver
// of their own.
func (s *session) checkUnderAssumption(stages []smt.Stage, extra *z3.Term) (checkResult, error) {
	if s.abandoned {
		return checkResult{}, nil // the Z3 context is gone (see session.abandoned)
	}
	enc := s.p.enc
	if enc.NonLinear() {
		return s.checkOneShot(stages, extra)
	}
	all := slices.Equal(stages, allStages())
	solver := s.full
	if !all || solver == nil || s.fullGroups != len(enc.Groups) {
		var err error
		if solver, err = enc.Ctx().NewSolver(s.arithParams()...); err != nil {
			return checkResult{}, fmt.Errorf("bmc: creating a solver: %w", err)
		}
		if err := assertStages(solver, enc.Groups, stages); err != nil {
			return checkResult{}, err
		}
		if all {
			s.full, s.fullGroups = solver, len(enc.Groups)
		}
	}
	var lits []*z3.Term
	if extra != nil {
		// One name per check: a literal of an earlier check on the same
		// solver stays unassumed, so its objective constrains nothing.
		s.nlits++
		lit := s.p.b.Fresh(fmt.Sprintf("check!lean%d", s.nlits))
		if err := solver.Assert(s.p.b.Implies(lit, extra)); err != nil {
			return checkResult{}, fmt.Errorf("bmc: asserting the objective: %w", err)
		}
		lits = append(lits, lit)
	}
	return s.check(solver, lits)
}

// assertStages asserts the groups of stages on solver.
func assertStages(solver *z3.Solver, groups []*smt.Group, stages []smt.Stage) error {
	for _, g := range groups {
		if slices.Contains(stages, g.Stage) {
			if err := solver.Assert(g.Formula); err != nil {
				return fmt.Errorf("bmc: asserting %s: %w", g.ID, err)
			}
		}
	}
	return nil
}

// arithParams chooses Z3's arithmetic core for the lean solvers: on a
// linear integer unrolling, the older core ("smt.arith.solver" 2) decides
// the checks of bench/bmc-vs-z3.sh sooner than 4.8.12's default (6): at
// bound 20 in about half the time, at bound 160 without a witness in 0.45×
// (go test -bench Counter ./internal/bmc/); the z3 command given the same
// setting takes 0.4–1.0× its default time on the hand-written unrollings.
// Both cores are sound and complete on linear arithmetic; formulas beyond
// it keep the default.
func (s *session) arithParams() []z3.Param {
	if s.p.enc.BeyondLIA() {
		return nil
	}
	return []z3.Param{{Name: "smt.arith.solver", Value: uint32(2)}}
}

// checkIncremental checks every group and extra on the session's
// incremental solver.
func (s *session) checkIncremental(extra *z3.Term) (checkResult, error) {
	enc := s.p.enc
	if enc.NonLinear() {
		return s.checkOneShot(allStages(), extra)
	}
	if s.inc == nil {
		var err error
		if s.inc, err = enc.Ctx().NewSolver(s.arithParams()...); err != nil {
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
