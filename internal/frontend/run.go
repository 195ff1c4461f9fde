package frontend

import (
	"context"
	"fmt"
	"time"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// A PhaseTimeout is a budget that ran out in a phase before solving
// (loading a model: reading, parsing, importing and lowering it; or
// parsing a CHC problem). The answer is undecided, never a verdict and
// never an input error.
type PhaseTimeout struct {
	Phase     string // "loading examples/order.json"
	TimeoutMS int
}

func (e *PhaseTimeout) Error() string {
	return fmt.Sprintf("timeout while %s: --timeout-ms %d ran out before solving began (docs/queries.md, Budgets)", e.Phase, e.TimeoutMS)
}

// WithinBudget runs fn and waits for it until deadline or until ctx (nil:
// none) is done; at the deadline the error is a *PhaseTimeout naming
// phase, at cancellation ctx's error. Loading takes no context (every
// format's parser and the FCSTM lowering would need one), so a load still
// running then is abandoned: its goroutine goes on until it returns,
// which in the CLI is when the process exits. Whatever fn touches must
// then be left alone (a Z3 context it uses is abandoned, not deleted).
func WithinBudget[T any](ctx context.Context, deadline time.Time, timeoutMS int, phase string, fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned fn still returns
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	var expired <-chan time.Time
	if !deadline.IsZero() {
		timer := time.NewTimer(time.Until(deadline))
		defer timer.Stop()
		expired = timer.C
	}
	var zero T
	select {
	case r := <-done:
		return r.v, r.err
	case <-expired:
		return zero, &PhaseTimeout{Phase: phase, TimeoutMS: timeoutMS}
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// A Job is one bmc run from loading the model to its replayed reports,
// under one budget: Options.TimeoutMS counted from Options.Start. The
// CLI's bmc, the MCP bmc tool and the language server's "check this
// query" all run through it, so that a budget that runs out while
// loading is the same timeout report everywhere (issue 38).
type Job struct {
	ModelPath string // labels the reports of a load that ran out
	QueryPath string // labels the reports; "" for none
	// Load loads the model; it runs under the budget.
	Load func() (*Model, error)
	// Query is the parsed query, bound to the model once it is loaded;
	// nil when Bound is set.
	Query *query.Query
	// Bound > 0 checks every invariant of the model to that depth.
	Bound    int
	MaxBound int // the largest bound Query may have
	Options  bmc.Options
	// Release ends the Z3 context of the solve (nil: Close).
	Release func(*z3.Context)
}

// A Run is what a Job found.
type Run struct {
	Model   *Model // nil when the budget ran out while loading
	Reports []*bmc.Report
	// Skipped says which invariants of a Bound run were not checked, and
	// why (also every one, when the budget ran out while loading).
	Skipped []string
}

// Run loads, binds and solves. An input error (the model, the binding)
// is an error; a budget that runs out while loading is a Run whose
// reports are undecided (outcome timeout, the phase in the reason).
func (j *Job) Run() (*Run, error) {
	start := j.Options.Start
	if start.IsZero() {
		start = time.Now()
	}
	opts := j.Options
	opts.Start = start
	var deadline time.Time
	if opts.TimeoutMS > 0 {
		deadline = start.Add(time.Duration(opts.TimeoutMS) * time.Millisecond)
	}
	m, err := WithinBudget(opts.Context, deadline, opts.TimeoutMS, "loading "+j.ModelPath, j.Load)
	if pt, ok := err.(*PhaseTimeout); ok {
		return j.loadTimedOut(pt, start), nil
	}
	if err != nil {
		return nil, err
	}
	run := &Run{Model: m}
	var queries []*query.Query
	if j.Bound > 0 {
		queries, err = InvariantQueries(m, j.Bound)
		run.Skipped = m.Unchecked
	} else {
		queries, err = []*query.Query{j.Query}, query.Bind(j.Query, m.System, query.BindOptions{MaxBound: j.MaxBound})
	}
	if err != nil {
		return nil, err
	}
	// One Z3 context for every query: creating one costs tens of
	// milliseconds, and each solve has its own solver in it.
	zctx, err := z3.NewContext()
	if err != nil {
		return nil, err
	}
	if j.Release != nil {
		defer j.Release(zctx)
	} else {
		defer zctx.Close()
	}
	if run.Reports, err = CheckAll(zctx, m, queries, opts, j.QueryPath); err != nil {
		return nil, err
	}
	return run, nil
}

// loadTimedOut is the Run of a load that outlived the budget: the query's
// report says timeout with the phase; a Bound run, whose invariants are
// not known before the model is, checked none, and says why.
func (j *Job) loadTimedOut(pt *PhaseTimeout, start time.Time) *Run {
	if j.Bound > 0 {
		return &Run{Skipped: []string{"every invariant: " + pt.Error()}}
	}
	q := j.Query
	notChecked := bmc.Stage{Origin: "not_checked"}
	res := &bmc.Result{Kind: q.Check.Kind, Polarity: q.Check.Kind.Polarity(), Bound: q.Check.Bound,
		CaseLabel: q.Check.CaseLabel, Window: q.Check.Window,
		Status: "timeout", Outcome: "timeout", Reason: pt.Error(), TimeoutMS: j.Options.TimeoutMS,
		TotalElapsedMS: float64(time.Since(start).Microseconds()) / 1000,
		Diagnostics:    []string{"timeout:deadline_exhausted_while_loading"},
		Feasibility:    bmc.Feasibility{Kernel: notChecked, Initialization: notChecked, Assumptions: notChecked, LocalizationStatus: "not_checked"},
	}
	rep := &bmc.Report{ModelPath: j.ModelPath, QueryPath: j.QueryPath, Query: query.Format(q), Result: res}
	return &Run{Reports: []*bmc.Report{rep}}
}
