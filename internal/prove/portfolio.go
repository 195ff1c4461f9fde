package prove

import (
	"fmt"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// spacerRun is one Spacer attempt under the shared deadline. With
// Options.Parallel it runs on its own goroutine, in its own Z3 context,
// beside the other layers, and re-checks its own answer there (on a graph
// of that context), so the first certified answer can stop the rest.
// Otherwise it runs in slices: a short one before the other layers, so
// that problems Spacer solves at once are not delayed by layers that fail,
// and the remaining budget after them.
type spacerRun struct {
	stop    *stopper
	done    chan struct{}
	out     spacerOutcome
	taken   bool
	text    string
	pred    func(int) string // node -> predicate name in text
	started time.Time
}

// spacerOutcome is what a Spacer attempt ended with.
type spacerOutcome struct {
	ans       *spacerAnswer
	certified bool
	why       string // why the re-check failed
	err       error
}

// launchSpacer starts Spacer on the open properties phi: on a goroutine
// when running in parallel (it stops the other layers when it proves),
// else synchronously for the first slice.
//
// While every property is open, a CHC problem goes to Spacer as its own
// text (the clauses as written are what Spacer is tuned for; its
// predicates are the nodes, same names, same argument order); otherwise,
// and for JSON models, hornText renders the open properties.
func (a *attempt) launchSpacer(phi []expr.Expr, all bool) (*spacerRun, error) {
	sp := &spacerRun{stop: a.newStopper(), done: make(chan struct{}), started: time.Now(), pred: predName}
	if all && a.p.source != "" {
		g := a.p.Graph
		sp.text, sp.pred = a.p.source, func(n int) string { return g.Nodes[n].Name }
	} else {
		c, err := a.checker()
		if err != nil {
			return nil, err
		}
		if sp.text, err = hornText(c, phi); err != nil {
			return nil, err
		}
	}
	if a.opts.Parallel {
		others := a.stop // the round's stopper (a.stop is replaced later)
		go a.runSpacerAttempt(sp, phi, time.Until(a.deadline), others)
		return sp, nil
	}
	slice := min(time.Until(a.deadline)/10, time.Duration(a.opts.SpacerSliceMS)*time.Millisecond)
	a.runSpacerAttempt(sp, phi, slice, nil)
	return sp, nil
}

// runSpacerAttempt runs sp within budget in a context of its own and
// publishes its outcome; a certified proof stops others. The context is
// released after the outcome is published: deleting it takes
// milliseconds that nobody needs to wait for.
func (a *attempt) runSpacerAttempt(sp *spacerRun, phi []expr.Expr, budget time.Duration, others *stopper) {
	var ctx *z3.Context
	defer func() {
		if ctx != nil {
			a.release(ctx)
		}
	}()
	defer close(sp.done)
	if budget < time.Millisecond || sp.stop.isStopped() {
		sp.out = spacerOutcome{ans: &spacerAnswer{Status: "unknown", Reason: "no time left"}}
		return
	}
	var err error
	if ctx, err = z3.NewContext(); err != nil {
		sp.out = spacerOutcome{err: err}
		return
	}
	sp.out = a.spacerWork(ctx, sp.text, sp.pred, phi, budget, sp.stop)
	if sp.out.certified {
		others.stop()
	}
}

// spacerWork runs Spacer in ctx and, when it answers safe, re-checks the
// interpretation by the triple rule there.
func (a *attempt) spacerWork(ctx *z3.Context, text string, pred func(int) string, phi []expr.Expr, budget time.Duration, stop *stopper) spacerOutcome {
	ans, err := runSpacer(ctx, text, budget, stop)
	if err != nil || ans.Status != "safe" {
		return spacerOutcome{ans: ans, err: err}
	}
	g, err := a.p.graphIn(ctx)
	if err != nil {
		return spacerOutcome{err: err}
	}
	if err := ans.interpret(ctx, g, pred); err != nil || ans.Status != "safe" {
		return spacerOutcome{ans: ans, err: err}
	}
	// The re-check runs without Z3 timeouts (see runSpacer); a watchdog
	// stops it at the deadline instead.
	watchdog := time.AfterFunc(time.Until(a.deadline), stop.stop)
	defer watchdog.Stop()
	ok, why, err := recheckRSC(ctx, g, ans.RSC, phi, 0, time.Time{}, stop)
	return spacerOutcome{ans: ans, certified: ok, why: why, err: err}
}

// ready reports whether the attempt has ended (without waiting).
func (sp *spacerRun) ready() bool {
	select {
	case <-sp.done:
		return true
	default:
		return false
	}
}

// cancel stops a running attempt without waiting for it: Spacer may take
// a while to notice an interrupt, and its goroutine owns everything it
// touches (its context, its graph, its outcome), so it ends on its own
// after the caller has moved on.
func (sp *spacerRun) cancel() { sp.stop.stop() }

// spacerGrace is how long the end of a round waits past the deadline for
// Spacer's answer. Short: Spacer interrupted at the deadline answers
// unknown anyway, and may take a hundred milliseconds to notice.
const spacerGrace = 2 * time.Millisecond

// take records the outcome of a finished attempt once; done reports that
// it proved the open properties.
func (a *attempt) take(sp *spacerRun, open []int) (bool, error) {
	if sp.taken || !sp.ready() {
		return false, nil
	}
	sp.taken = true
	o := sp.out
	if o.err != nil {
		return false, o.err
	}
	t0 := sp.started
	switch {
	case o.ans.Status == "unsafe":
		a.log("spacer", "unsafe", t0, "Spacer found the clauses unsatisfiable (a counterexample exists beyond the bounded search)")
	case o.ans.Status == "unknown":
		a.log("spacer", "unknown", t0, o.ans.Reason)
	case !o.certified:
		a.log("spacer", "failed", t0, "Spacer's interpretation did not pass the re-check: "+o.why)
	default:
		a.log("spacer", "proved", t0, fmt.Sprintf("Spacer %.1f ms; re-checked by the triple rule", ms(o.ans.Elapsed)))
		a.proved(open, "spacer", o.ans.RSC, 0)
		return true, nil
	}
	return false, nil
}

// finishSpacer gives Spacer the rest of the budget: it waits for the
// parallel attempt, or runs the second slice.
func (a *attempt) finishSpacer(sp *spacerRun, open []int, phi []expr.Expr) (bool, error) {
	if a.opts.Parallel {
		timer := time.NewTimer(time.Until(a.deadline) + spacerGrace)
		defer timer.Stop()
		select {
		case <-sp.done:
		case <-timer.C:
		case <-a.opts.Context.Done():
		}
		if !sp.ready() {
			sp.taken = true
			a.log("spacer", "unknown", sp.started, "no answer by the deadline")
		}
		return a.take(sp, open)
	}
	if done, err := a.take(sp, open); done || err != nil {
		return done, err
	}
	if sp.out.ans == nil || sp.out.ans.Status != "unknown" || sp.out.ans.Reason != "timeout" {
		return false, nil // it answered: more time changes nothing
	}
	again := &spacerRun{stop: a.newStopper(), done: make(chan struct{}), started: time.Now(), text: sp.text, pred: sp.pred}
	a.runSpacerAttempt(again, phi, time.Until(a.deadline), nil)
	return a.take(again, open)
}

// unsafe reports that the attempt ended with Spacer finding the clauses
// unsatisfiable.
func (sp *spacerRun) unsafe() bool {
	return sp.ready() && sp.out.ans != nil && sp.out.ans.Status == "unsafe"
}
