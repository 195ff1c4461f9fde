package prove

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// spacerRun is one Spacer attempt under the shared deadline. It runs in
// the attempt's context, on the graph and the clauses already there (no
// second context, no second parse), and re-checks its own answer there.
// With Options.Parallel it runs on its own goroutine: the other layers
// wait for a head start, and only when Spacer has not answered by then
// do they move to a fresh context of their own (detach), so the first
// certified answer can stop the rest. Otherwise it runs in slices: a
// short one before the other layers, so that problems Spacer solves at
// once are not delayed by layers that fail, and the remaining budget
// after them.
type spacerRun struct {
	stop    *stopper
	done    chan struct{}
	out     spacerOutcome
	taken   bool
	ctx     *z3.Context // the context it runs in
	g       *Graph      // the graph in ctx
	clauses []*z3.Term  // the clauses in ctx; nil: parse text
	text    string
	params  []z3.Param       // of the HORN solver
	rlimit  uint32           // > 0: the slice's work, in Z3 resource units
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

// launchSpacer starts Spacer on the open properties phi (c, a checker of
// the attempt, renders them as clauses when needed): on a goroutine when
// running in parallel (it stops the other layers when it proves), waiting
// for its head start, else synchronously for the first slice.
//
// While every property is open, a CHC problem goes to Spacer as its own
// clauses (the clauses as written are what Spacer is tuned for; its
// predicates are the nodes, same names, same argument order); otherwise,
// and for JSON models, hornText renders the open properties.
func (a *attempt) launchSpacer(c *checker, phi []expr.Expr, all bool) (*spacerRun, error) {
	sp := &spacerRun{stop: a.newStopper(), done: make(chan struct{}), started: time.Now(), ctx: a.ctx, g: a.g, pred: predName}
	if g := a.g; all && a.p.source != "" && g.Clauses != nil {
		sp.clauses, sp.pred = g.Clauses, func(n int) string { return g.Nodes[n].Name }
	} else {
		var err error
		if sp.text, err = hornText(c, phi); errors.Is(err, errEncodingBudget) {
			a.log("spacer", "unknown", sp.started, "timeout while encoding the Horn clauses")
			return nil, nil
		} else if err != nil {
			return nil, err
		}
		if c.enc.bound > 0 {
			sp.params = noInline
		}
	}
	if !a.opts.Parallel {
		// The first slice ends at a fixed amount of Z3's work, whatever
		// the machine's load, so that the layers after it find the same
		// terms in the context on every run; a third of what is left is
		// only the outer stop, for a machine far slower than usual.
		sp.rlimit = a.opts.SpacerSlice
		a.runSpacerAttempt(sp, phi, time.Until(a.deadline)/spacerSliceShare, nil)
		return sp, nil
	}
	go a.runSpacerAttempt(sp, phi, time.Until(a.deadline), a.stop)
	// Spacer's head start: what it solves at once is solved as fast as
	// alone, in the one context, without the bounded search competing
	// for the machine.
	sp.await(min(spacerHeadStart, time.Until(a.deadline)/spacerHeadShare), a.opts.Context.Done())
	if sp.ready() {
		return sp, nil
	}
	return sp, a.detach(sp)
}

// detach leaves the attempt's context to Spacer, which is still running
// in it, and moves the other layers to a fresh context with the graph
// rebuilt there. The context may be the caller's: settle waits for
// Spacer to end before Prove returns.
func (a *attempt) detach(sp *spacerRun) error {
	a.lent = append(a.lent, sp)
	ctx, err := z3.NewContext()
	if err != nil {
		return err
	}
	a.owned = append(a.owned, ctx)
	a.hold(ctx)
	g, err := a.p.graphIn(ctx)
	if err != nil {
		return err
	}
	a.ctx, a.g = ctx, g
	return nil
}

// settle ends the attempt: it stops every Spacer still running in a
// context it was left, waits for them, and only then ends the holds on
// the contexts (no goroutine uses them any more) and releases the
// contexts the attempt made.
func (a *attempt) settle() {
	for _, sp := range a.lent {
		sp.cancel()
		<-sp.done
	}
	for _, end := range a.holds {
		end()
	}
	for _, ctx := range a.owned {
		a.release(ctx)
	}
}

// runSpacerAttempt runs sp within budget and publishes its outcome; a
// certified proof stops others.
func (a *attempt) runSpacerAttempt(sp *spacerRun, phi []expr.Expr, budget time.Duration, others *stopper) {
	defer close(sp.done)
	if budget < time.Millisecond || sp.stop.isStopped() {
		sp.out = spacerOutcome{ans: &spacerAnswer{Status: "unknown", Reason: "no time left"}}
		return
	}
	sp.out = a.spacerWork(sp, phi, budget)
	if sp.out.certified {
		others.stop()
	}
}

// spacerWork runs Spacer and, when it answers safe, re-checks the
// interpretation by the triple rule on a fresh solver, limited by the
// deadline only and stopped with Spacer: a proof is not dropped for one
// slow query while time is left.
func (a *attempt) spacerWork(sp *spacerRun, phi []expr.Expr, budget time.Duration) spacerOutcome {
	var ans *spacerAnswer
	var err error
	params := sp.params
	if sp.rlimit > 0 {
		params = append(slices.Clip(params), z3.Param{Name: "rlimit", Value: sp.rlimit})
	}
	if sp.clauses != nil {
		ans, err = solveHorn(sp.ctx, sp.clauses, budget, a.deadline, sp.stop, params...)
	} else {
		ans, err = runSpacer(sp.ctx, sp.text, budget, a.deadline, sp.stop, params...)
	}
	if err != nil || ans.Status != "safe" {
		return spacerOutcome{ans: ans, err: err}
	}
	if err := ans.interpret(sp.ctx, sp.g, sp.pred); err != nil || ans.Status != "safe" {
		return spacerOutcome{ans: ans, err: err}
	}
	ok, why, err := recheckRSC(sp.ctx, sp.g, ans.RSC, phi, 0, a.deadline, sp.stop)
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
// a while to notice an interrupt. Whoever shares or lent it a context
// waits on done before touching that context again (settle).
func (sp *spacerRun) cancel() { sp.stop.stop() }

// defaultSpacerSlice is Options.SpacerSlice's default, in Z3 resource
// units: Spacer on dillig12_m.smt2 spends 100,000 of them in about 330 ms
// on a 2-core machine running other work.
const defaultSpacerSlice = 120000

// spacerSliceShare: the first slice, ended by its resource limit, stops
// at the latest when 1/spacerSliceShare of what is left of the budget has
// passed.
const spacerSliceShare = 3

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
		sp.await(time.Until(a.deadline)+spacerGrace, a.opts.Context.Done())
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
	again := *sp
	again.stop, again.done, again.started, again.taken, again.rlimit = a.newStopper(), make(chan struct{}), time.Now(), false, 0
	a.runSpacerAttempt(&again, phi, time.Until(a.deadline), nil)
	return a.take(&again, open)
}

// await waits until sp has ended, d has passed or cancel is closed,
// whichever comes first.
func (sp *spacerRun) await(d time.Duration, cancel <-chan struct{}) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-sp.done:
	case <-timer.C:
	case <-cancel:
	}
}

// unsafe reports that the attempt ended with Spacer finding the clauses
// unsatisfiable.
func (sp *spacerRun) unsafe() bool {
	return sp.ready() && sp.out.ans != nil && sp.out.ans.Status == "unsafe"
}
