package bmc

import (
	"errors"
	"time"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// SolveAll checks each query of qs on sys and returns their results in
// order, each the result Solve gives for that query alone (elapsed times
// aside). When the queries share everything but their check — the same
// bound, no init or assume clause, the same need for step events — the
// unrolling is encoded once and each check's objective is built and
// solved over it; otherwise, and with Shortest or an explanation, each
// query is solved on its own.
//
// Only the encoding is shared: each check still runs on a solver of its
// own (or under its own assumption literal), as in Solve, so no property
// constrains another's check. With a budget, the shared encoding is
// charged to the first query, and every later query's budget begins when
// its check does.
func SolveAll(ctx *z3.Context, sys *sts.System, qs []*query.Query, opts Options) ([]*Result, error) {
	// As in Solve, and across the queries so that each query's terms are
	// numbered the same on every run.
	defer ctx.Hold()()
	if !shareable(qs, opts) {
		return solveEach(ctx, sys, qs, opts)
	}
	start := opts.begin()
	p, err := compile(ctx, sys, qs[0], false)
	if err != nil {
		return nil, err
	}
	p.meter = newMeter(opts.Progress, qs[0], 1, len(qs))
	uctx, _, cancel := budgetContext(opts, start)
	p.cancelled = uctx.Err
	err = p.unroll(qs[0].Check.Bound)
	cancel()
	if errors.Is(err, errCancelled) {
		// The budget ran out while encoding: each query alone reports
		// where it stopped.
		return solveEach(ctx, sys, qs, opts)
	}
	if err != nil {
		return nil, err
	}
	lia := p.enc.BeyondLIA()
	out := make([]*Result, 0, len(qs))
	for i, q := range qs {
		if i > 0 {
			start = time.Now()
		}
		if i > 0 && out[i-1].abandoned {
			out = append(out, abandonedResult(q, opts))
			continue
		}
		p.retarget(q, lia)
		p.meter = newMeter(opts.Progress, q, i+1, len(qs))
		r, err := run(p, opts, start)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func solveEach(ctx *z3.Context, sys *sts.System, qs []*query.Query, opts Options) ([]*Result, error) {
	out := make([]*Result, 0, len(qs))
	for i, q := range qs {
		if i > 0 && out[i-1].abandoned {
			out = append(out, abandonedResult(q, opts))
			continue
		}
		one := opts
		if i > 0 {
			one.Start = time.Time{} // a later query's budget begins with it
		}
		if opts.Progress != nil {
			one.Progress = numbered{opts.Progress, i + 1, len(qs)}
		}
		r, err := Solve(ctx, sys, q, one)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// shareable reports whether the queries compile to the same unrolling
// (encoding, initialisation and assumption groups) and are solved at one
// bound each, so that only their objectives differ.
func shareable(qs []*query.Query, opts Options) bool {
	if len(qs) < 2 || opts.Shortest || (opts.Explain != "" && opts.Explain != "none") {
		return false
	}
	for _, q := range qs {
		if q.Init != nil || len(q.Assumes) > 0 || q.Check.Bound != qs[0].Check.Bound || readsEvents(q) != readsEvents(qs[0]) {
			return false
		}
	}
	return true
}

// retarget points p, unrolled to the bound, at query q: the state an
// objective leaves behind (its frame hits, the events it read, whether it
// went beyond linear arithmetic) is reset to the unrolling's own.
func (p *problem) retarget(q *query.Query, lia bool) {
	p.q = q
	p.frameHits = nil
	p.eventSupport = map[[2]int]bool{}
	p.fairReads = nil
	p.enc.ResetBeyondLIA(lia)
}

// abandonedResult is the timeout of a query not solved because an earlier
// query's check was abandoned, which retires the shared Z3 context.
func abandonedResult(q *query.Query, opts Options) *Result {
	notChecked := Stage{Origin: "not_checked"}
	r := &Result{Kind: q.Check.Kind, Polarity: q.Check.Kind.Polarity(), Bound: q.Check.Bound,
		CaseLabel: q.Check.CaseLabel, Window: q.Check.Window, TimeoutMS: opts.TimeoutMS,
		Status: "timeout", Reason: "timeout", abandoned: true,
		Feasibility: Feasibility{Kernel: notChecked, Initialization: notChecked, Assumptions: notChecked, LocalizationStatus: "not_checked"},
		Diagnostics: []string{"timeout:solver_abandoned_by_an_earlier_query"}}
	r.Outcome, r.Satisfied = outcome(r)
	return r
}
