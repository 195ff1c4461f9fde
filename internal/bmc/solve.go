package bmc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/trace"
	"github.com/stateproof/stateproof/internal/z3"
)

// Options tune a solve.
type Options struct {
	// TimeoutMS is one monotonic budget for the whole solve (encoding,
	// primary, feasibility, tail); 0 installs no timeout.
	TimeoutMS int
	// Start is when the budget began (zero: when the solve is called):
	// the CLI counts it from the program's start, so that loading and
	// lowering the model are inside it. It is the first query's start;
	// every later query of SolveAll begins its own budget.
	Start time.Time
	// Context, when not nil, cancels the solve: it is checked between
	// frames while the encoding is unrolled and interrupts the solver. A
	// cancelled or expired solve ends with the outcome timeout.
	Context context.Context
	// Shortest solves bound by bound on the same solver and stops at the
	// first model, so the witness or counterexample is a shortest one.
	Shortest bool
	// NoIncompleteCheck disables the response tail check.
	NoIncompleteCheck bool
	// Explain is the requested explanation depth of an infeasible
	// scenario (docs/queries.md): "" or "none", "formal", "proof".
	Explain string
	// Explainer builds the explanation; bmc calls it only when the scenario
	// is infeasible and Explain asks for one. It is a hook rather than an
	// import so that the explainer may build on this package.
	Explainer Explainer
	// Progress, when set, is told the query, the bound and the stage as
	// the solve moves on (see progress.Reporter); nil costs nothing.
	Progress progress.Reporter
	// onCheck, when set, is given the text of every check before it runs:
	// the solver's assertions in SMT-LIB and the assumed literals. Tests
	// read it to show that the solver's input does not change from run to
	// run (TestSolverInputIsDeterministic).
	onCheck func(text string)
}

// Stage is the feasibility record of one stage (docs/queries.md).
type Stage struct {
	Status    string   // sat, unsat, unknown, timeout; "" when not checked
	Origin    string   // checked, inferred, not_checked
	Reason    string   // for unknown/timeout
	ElapsedMS *float64 // nil unless checked
}

// Feasibility is the staged feasibility evidence of a solve.
type Feasibility struct {
	Kernel, Initialization, Assumptions Stage
	InfeasibleStage                     string // kernel, initialization, assumptions; "" for null
	LocalizationStatus                  string
}

// Result is the outcome of one bounded check.
type Result struct {
	Kind      query.Kind
	Polarity  query.Polarity
	Bound     int
	CaseLabel string
	Window    int

	Status  string // main check: sat, unsat, unknown, timeout
	Reason  string // Z3's reason for unknown/timeout
	Outcome string
	// Satisfied is the verdict V: true, false, or nil (undecided).
	Satisfied *bool

	ElapsedMS      float64
	TimeoutMS      int
	TotalElapsedMS float64

	IncompleteStatus    string // "" is null
	IncompleteReason    string
	IncompleteElapsedMS *float64

	Feasibility Feasibility
	Diagnostics []string
	// ErrorSites are the locations where a step of the model raises a
	// runtime error (a division by zero, a non-integral int writeback):
	// such a step is excluded from every trace, so no query sees it
	// (docs/fcstm.md, "Known gaps"). Empty when no case carries a
	// non-trivial definedness condition.
	ErrorSites []string
	// RaiseSite is where a run of the scenario raises within the bound,
	// which made a verdict without a trace undecided ("" when none does or
	// the verdict rests on a trace).
	RaiseSite string
	// SolvedBound is the bound the model was found at (below Bound only
	// with Shortest).
	SolvedBound int
	// Symbols is the number of trace symbols at the solved bound
	// (equation 5 of seed 002).
	Symbols int
	// Fair lists the weakly fair events of the query's fair clause
	// (docs/queries.md#fairness); nil without one.
	Fair []string
	// EveryDepth, when not nil, says the verdict holds at every depth:
	// an explicit search found the reachable space finite and within the
	// bound (docs/queries.md, "When the bound is enough"). Set by the
	// caller (package frontend), which has the model's search; bmc
	// itself never sets it.
	EveryDepth *EveryDepth
	// LoopStart is the frame the last frame of a fair counterexample
	// equals: the run repeats steps LoopStart..N-1 forever. nil unless
	// the check has a fair clause and a trace.
	LoopStart *int

	// abandoned says a check was abandoned (z3.ErrAbandoned): the Z3
	// context of the solve is retired, so no later query may use it.
	abandoned bool

	// Refinement is the explanation ledger (docs/queries.md); nil when no
	// explanation was requested.
	Refinement *Refinement

	// Trace is the decoded model, if any: the primary witness or
	// counterexample, or the incomplete suffix of a response.
	Trace *trace.Trace
	// PropertyFrame is the first frame of Trace where the property of a
	// reach, forbid or invariant check is met (witness) or violated
	// (counterexample); nil for the other kinds, whose verdict is not one
	// frame's.
	PropertyFrame *int
}

// ModelRoles lists the roles of the available models.
func (r *Result) ModelRoles() []string {
	if r.Trace == nil {
		return []string{}
	}
	return []string{r.Trace.Role}
}

// session runs checks under the shared budget.
type session struct {
	p        *problem
	deadline time.Time
	budget   bool
	start    time.Time
	ctx      context.Context // the caller's Context with the deadline
	// solver is the solver of the last check, whose model is decoded.
	solver *z3.Solver
	// inc is the lean shape's incremental solver of --shortest: the
	// groups of the bounds solved so far stay asserted, each bound's
	// objective is pushed and popped (incPushed).
	inc       *z3.Solver
	incGroups int
	incPushed bool
	// full is the lean shape's solver of every stage on the incremental
	// core (checkUnderAssumption) over the first fullGroups groups; nil
	// until first used.
	full       *z3.Solver
	fullGroups int
	nlits      int               // literals made for checks on full so far
	onCheck    func(text string) // Options.onCheck

	// abandoned is set when a check did not stop at its interrupt and was
	// left running (z3.ErrAbandoned): the Z3 context is retired, so the
	// session makes no further Z3 call and answers timeout.
	abandoned bool
}

// abandonGrace is how long a check may run on after its interrupt: a
// twentieth of the budget, so that with what follows the check the
// command still ends within the promised 10% over budget, and at least
// 50 ms so that a check about to return is not thrown away.
func abandonGrace(budget time.Duration) time.Duration {
	return max(budget/20, 50*time.Millisecond)
}

// EveryDepth is what an explicit search found behind the every-depth
// note: the reachable states and the diameter of their space.
type EveryDepth struct {
	States, Diameter int
}

// DefaultTimeoutMS is the budget of a solve when the caller gives none
// (the CLI and the MCP server): without one, a query as small as
// "reach <= 10000: true" on a 1 KB model ran for 40 s and took 3.3 GB
// before it answered.
const DefaultTimeoutMS = 30000

// errCancelled stops the encoding when the budget runs out or the
// caller cancels; solveAt turns it into the outcome timeout.
var errCancelled = errors.New("bmc: cancelled")

type checkResult struct {
	status  string
	reason  string
	elapsed float64
	ran     bool
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }

// check runs one satisfiability check on solver with the remaining
// budget; a check for which nothing remains is not run. The solver is
// remembered as the one whose model decoding reads.
func (s *session) check(solver *z3.Solver, lits []*z3.Term) (checkResult, error) {
	s.solver = solver
	if s.abandoned {
		return checkResult{}, nil
	}
	if s.budget {
		left := time.Until(s.deadline)
		if left < time.Millisecond {
			return checkResult{}, nil
		}
		if err := solver.SetTimeout(uint32(min(left.Milliseconds(), math.MaxUint32))); err != nil {
			return checkResult{}, err
		}
	}
	if s.ctx.Err() != nil {
		return checkResult{}, nil
	}
	if s.onCheck != nil {
		s.onCheck(checkText(solver, lits))
	}
	// CheckContext interrupts the check when the budget runs out and
	// gives it abandonGrace more before abandoning it (Z3 does not always
	// stop when interrupted, notably on non-linear real arithmetic); the
	// context is then unusable, so no later check of this session runs.
	t0 := time.Now()
	res, err := solver.CheckContext(s.ctx, abandonGrace(s.deadline.Sub(s.start)), lits...)
	if errors.Is(err, z3.ErrAbandoned) {
		s.abandoned = true
		return checkResult{status: "timeout", reason: "timeout", elapsed: ms(time.Since(t0)), ran: true}, nil
	}
	if err != nil {
		return checkResult{}, fmt.Errorf("bmc: solver: %w", err)
	}
	cr := checkResult{elapsed: ms(time.Since(t0)), ran: true}
	switch res {
	case z3.Sat:
		cr.status = "sat"
	case z3.Unsat:
		cr.status = "unsat"
	default:
		cr.reason = solver.ReasonUnknown()
		// A check stopped at the deadline is a timeout whatever Z3 says:
		// interrupted inside non-linear arithmetic it reads
		// "(incomplete (theory arithmetic))", one run in two on a sqrt.
		if cr.reason == "timeout" || cr.reason == "canceled" || s.ctx.Err() != nil || (s.budget && !time.Now().Before(s.deadline)) {
			cr.status, cr.reason = "timeout", "timeout"
		} else {
			cr.status = "unknown"
			if cr.reason == "" {
				cr.reason = "unknown"
			}
		}
	}
	return cr, nil
}

// checkText is the solver's assertions in SMT-LIB followed by one line
// naming the assumed literals.
func checkText(solver *z3.Solver, lits []*z3.Term) string {
	var b strings.Builder
	b.WriteString(solver.String())
	b.WriteString("; assuming")
	for _, l := range lits {
		b.WriteString(" " + l.String())
	}
	b.WriteString("\n")
	return b.String()
}

// Solve checks query q on sys within the query's bound. The Z3 context is
// the caller's (one per solve keeps solves independent).
func Solve(ctx *z3.Context, sys *sts.System, q *query.Query, opts Options) (*Result, error) {
	start := opts.begin()
	// No term dies during the solve, so Z3 numbers the terms in the order
	// they are built, the same on every run, and does the same work.
	defer ctx.Hold()()
	p, err := compile(ctx, sys, q, opts.Explain != "" && opts.Explain != "none")
	if err != nil {
		return nil, err
	}
	p.meter = newMeter(opts.Progress, q, 1, 1)
	return run(p, opts, start)
}

// begin is when the budget began: Start, or now.
func (o Options) begin() time.Time {
	if o.Start.IsZero() {
		return time.Now()
	}
	return o.Start
}

// budgetContext is the caller's Context under the budget that began at
// start (cancel is never nil).
func budgetContext(opts Options, start time.Time) (ctx context.Context, deadline time.Time, cancel context.CancelFunc) {
	ctx = opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.TimeoutMS <= 0 {
		return ctx, time.Time{}, func() {}
	}
	deadline = start.Add(time.Duration(opts.TimeoutMS) * time.Millisecond)
	ctx, cancel = context.WithDeadline(ctx, deadline)
	return ctx, deadline, cancel
}

// run solves the query of p, whose budget began at start.
func run(p *problem, opts Options, start time.Time) (*Result, error) {
	q := p.q
	s := &session{p: p, start: start, budget: opts.TimeoutMS > 0, onCheck: opts.onCheck}
	var cancel context.CancelFunc
	s.ctx, s.deadline, cancel = budgetContext(opts, start)
	defer cancel()
	p.cancelled = s.ctx.Err
	r := &Result{Kind: q.Check.Kind, Polarity: q.Check.Kind.Polarity(), Bound: q.Check.Bound,
		CaseLabel: q.Check.CaseLabel, Window: q.Check.Window, TimeoutMS: opts.TimeoutMS, ErrorSites: errorSites(p.sys),
		Fair: fairNames(q, p.sys)}
	first := q.Check.Bound
	if opts.Shortest {
		if shortestApplies(q.Check.Kind) {
			first = 1
		} else {
			r.Diagnostics = append(r.Diagnostics, fmt.Sprintf("shortest:not_applicable:%s", q.Check.Kind))
		}
	}
	for n := first; n <= q.Check.Bound; n++ {
		done, err := s.solveAt(r, n, opts, n == q.Check.Bound)
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
	}
	if s.abandoned {
		// A check ran past its interrupt and was left running: say so,
		// with the phase, and touch the Z3 context no more.
		r.abandoned = true
		r.Diagnostics = append(r.Diagnostics, "timeout:solver_did_not_stop_at_interrupt_while_solving")
	} else if opts.Explain != "" && opts.Explain != "none" {
		p.meter.stage(r.SolvedBound, "explaining")
		if err := s.explain(r, opts); err != nil {
			return nil, err
		}
	}
	r.TotalElapsedMS = ms(time.Since(start))
	return r, nil
}

// shortestApplies: a model of a shorter bound stays a model at the full
// bound only for the kinds whose objective is a disjunction over frames.
func shortestApplies(k query.Kind) bool {
	return k == query.Reach || k == query.Forbid || k == query.Invariant || k == query.Cover
}

// solveAt solves at bound n; final says n is the query's bound, where an
// UNSAT main check goes through the feasibility stages. done reports that
// the result is decided.
func (s *session) solveAt(r *Result, n int, opts Options, final bool) (done bool, err error) {
	p := s.p
	err = p.unroll(n)
	var phi, omega *z3.Term
	if err == nil {
		phi, omega, err = p.objective()
	}
	if errors.Is(err, errCancelled) {
		// The budget ran out (or the caller cancelled) while encoding:
		// the reason names the step, so that a bound too large for the
		// budget reads as such.
		r.Status, r.Reason, r.SolvedBound = "timeout", fmt.Sprintf("timeout while encoding step %d", p.n+1), p.n
		r.Diagnostics = append(r.Diagnostics, "timeout:deadline_exhausted_while_encoding")
		s.finish(r)
		return true, nil
	}
	if err != nil {
		return false, err
	}
	p.meter.stage(n, "solving")
	main, err := s.checkStages(allStages(), phi, opts.Shortest)
	if err != nil {
		return false, err
	}
	r.SolvedBound, r.Symbols = n, p.enc.Symbols()
	if !main.ran {
		main = checkResult{status: "timeout", reason: "timeout"}
		r.Diagnostics = append(r.Diagnostics, "timeout:deadline_exhausted_before_primary_check")
	}
	r.Status, r.Reason, r.ElapsedMS = main.status, main.reason, main.elapsed
	notChecked := Stage{Origin: "not_checked"}
	r.Feasibility = Feasibility{Kernel: notChecked, Initialization: notChecked, Assumptions: notChecked, LocalizationStatus: "not_checked"}
	switch main.status {
	case "sat":
		inferred := Stage{Status: "sat", Origin: "inferred"}
		r.Feasibility = Feasibility{Kernel: inferred, Initialization: inferred, Assumptions: inferred, LocalizationStatus: "not_needed"}
		role := "primary_witness"
		if r.Polarity == query.Counterexample {
			role = "primary_counterexample"
		}
		if r.Trace, err = s.decodeModel(role); err != nil {
			return false, err
		}
		if r.PropertyFrame, err = s.propertyFrame(); err != nil {
			return false, err
		}
		if r.Fair != nil {
			if r.LoopStart, err = s.loopStart(); err != nil {
				return false, err
			}
		}
		s.finish(r)
		return true, nil
	case "unknown", "timeout":
		s.finish(r)
		return true, nil
	}
	if !final {
		return false, nil
	}
	p.meter.stage(n, "feasibility")
	if err := s.feasibility(r, phi); err != nil {
		return false, err
	}
	if r.Fair != nil && r.Feasibility.Assumptions.Status == "sat" {
		// The tail is moot: the lasso search read every window round
		// the loop, and no lasso is not a proof.
		r.IncompleteReason = noFairLasso
	} else if r.Kind == query.Response && r.Feasibility.Assumptions.Status == "sat" {
		p.meter.stage(n, "tail")
		if err := s.tail(r, omega, opts); err != nil {
			return false, err
		}
	}
	s.finish(r)
	return true, s.raiseCheck(r)
}

// propertyFrame is the first frame at which the solver's current model
// meets the objective's per-frame disjunct, or nil when there is none.
func (s *session) propertyFrame() (*int, error) {
	if s.p.frameHits == nil {
		return nil, nil
	}
	m, err := s.solver.Model()
	if err != nil {
		return nil, fmt.Errorf("bmc: reading the model: %w", err)
	}
	d := decoder{p: s.p, m: m}
	for i, t := range s.p.frameHits {
		hit, err := d.bool(t)
		if err != nil {
			return nil, fmt.Errorf("bmc: evaluating the property at frame %d: %w", i, err)
		}
		if hit {
			return &i, nil
		}
	}
	return nil, nil
}

// feasibility runs steps 2 and 3 after an UNSAT main check of the
// objective phi.
func (s *session) feasibility(r *Result, phi *z3.Term) error {
	f := &r.Feasibility
	scen, err := s.checkScenarioAfterUnsat(phi)
	if err != nil {
		return err
	}
	if !scen.ran {
		f.Assumptions = Stage{Status: "timeout", Origin: "not_checked", Reason: "deadline exhausted"}
		r.Diagnostics = append(r.Diagnostics, "feasibility_timeout:deadline_exhausted_before_assumptions_check")
		return nil
	}
	f.Assumptions = checked(scen)
	switch scen.status {
	case "sat":
		inferred := Stage{Status: "sat", Origin: "inferred"}
		f.Kernel, f.Initialization, f.LocalizationStatus = inferred, inferred, "not_needed"
		return nil
	case "unknown", "timeout":
		return nil
	}
	// Infeasible: localise the stage where satisfiability is lost.
	init, err := s.checkStages([]smt.Stage{smt.Kernel, smt.Init}, nil, false)
	if err != nil {
		return err
	}
	if !init.ran || init.status == "unknown" || init.status == "timeout" {
		f.LocalizationStatus = map[bool]string{true: "timeout", false: init.status}[!init.ran || init.status == "timeout"]
		return nil
	}
	f.Initialization = checked(init)
	if init.status == "sat" {
		f.Kernel = Stage{Status: "sat", Origin: "inferred"}
		f.InfeasibleStage, f.LocalizationStatus = "assumptions", "complete"
		return nil
	}
	kern, err := s.checkStages([]smt.Stage{smt.Kernel}, nil, false)
	if err != nil {
		return err
	}
	if !kern.ran || kern.status == "unknown" || kern.status == "timeout" {
		f.LocalizationStatus = map[bool]string{true: "timeout", false: kern.status}[!kern.ran || kern.status == "timeout"]
		return nil
	}
	f.Kernel = checked(kern)
	f.InfeasibleStage, f.LocalizationStatus = "initialization", "complete"
	if kern.status == "unsat" {
		f.InfeasibleStage = "kernel"
	}
	return nil
}

func checked(c checkResult) Stage {
	e := c.elapsed
	return Stage{Status: c.status, Origin: "checked", Reason: c.reason, ElapsedMS: &e}
}

// tail runs the response tail check Ψ.
func (s *session) tail(r *Result, omega *z3.Term, opts Options) error {
	switch {
	case omega == nil:
		return nil // Ω trivially false: the main check decides
	case opts.NoIncompleteCheck:
		r.IncompleteReason = "incomplete check disabled"
		return nil
	}
	t, err := s.checkStages(allStages(), omega, false)
	if err != nil {
		return err
	}
	if !t.ran {
		zero := 0.0
		r.IncompleteStatus, r.IncompleteReason, r.IncompleteElapsedMS = "timeout", "deadline exhausted before incomplete check", &zero
		return nil
	}
	e := t.elapsed
	r.IncompleteStatus, r.IncompleteReason, r.IncompleteElapsedMS = t.status, t.reason, &e
	if t.status == "sat" {
		tr, err := s.decodeModel("incomplete_suffix")
		if err != nil {
			return err
		}
		r.Trace = tr
	}
	return nil
}

// finish derives the outcome and verdict.
func (s *session) finish(r *Result) {
	r.Outcome, r.Satisfied = outcome(r)
}

// tailNeeded reports whether the response tail was needed but not decided
// UNSAT: run and SAT/unknown/timeout, or skipped (disabled, budget).
func tailBad(r *Result) bool {
	if r.Fair != nil {
		// A fair check without a lasso is never satisfied (fair.go).
		return r.Status == "unsat"
	}
	if r.Kind != query.Response {
		return false
	}
	switch r.IncompleteStatus {
	case "sat", "unknown", "timeout":
		return true
	case "":
		return r.IncompleteReason != "" // skipped although needed
	}
	return false
}

// outcome is the verdict function V of equation 2 and the ten outcomes.
func outcome(r *Result) (string, *bool) {
	t, f := true, false
	switch r.Status {
	case "unknown":
		return "unknown", nil
	case "timeout":
		return "timeout", nil
	case "sat":
		if r.Polarity == query.Witness {
			return "witness_found", &t
		}
		return "property_violated", &f
	}
	switch r.Feasibility.Assumptions.Status {
	case "unsat":
		return "scenario_infeasible", nil
	case "unknown":
		return "feasibility_unknown", nil
	case "timeout", "":
		return "feasibility_timeout", nil
	}
	if r.Polarity == query.Witness {
		return "no_witness", &f
	}
	if tailBad(r) {
		return "incomplete", nil
	}
	return "property_satisfied", &t
}

// CheckExplain refuses an explanation depth other than none, formal and
// proof (shared by the command line and the MCP server).
func CheckExplain(mode string) error {
	if mode != "none" && mode != "formal" && mode != "proof" {
		return fmt.Errorf("explain must be none, formal or proof (got %q)", mode)
	}
	return nil
}

// errorSites lists, once each and in case order, where the error cases of
// sys are.
func errorSites(sys *sts.System) []string {
	var out []string
	for _, src := range sys.Sources() {
		for _, c := range sys.Cases[src] {
			if c.Kind == sts.Error && !slices.Contains(out, c.Src.String()) {
				out = append(out, c.Src.String())
			}
		}
	}
	return out
}
