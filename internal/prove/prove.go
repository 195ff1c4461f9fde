package prove

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/z3"
)

// Property is one RSC to prove: a formula over a node's variables (false
// for a node that must be unreachable).
type Property struct {
	ID      string
	Node    int
	Formula expr.Expr
	Source  string // where it came from: an invariant, an .rsc line, a query clause
}

// Problem is a graph with its properties. Confirm, when set, re-finds a
// violation with the bounded model checker and replays it on the runtime
// (JSON models); it returns false with a reason when it cannot confirm.
type Problem struct {
	Graph *Graph
	Props []Property
	// Confirm gets what is left of the time budget, in milliseconds (>= 1).
	Confirm func(p *Property, depth, timeoutMS int) (ok bool, detail string, err error)
	// reload builds the graph again in another context (CHC problems,
	// whose clauses are terms of one context), for layers that run on
	// their own goroutine.
	reload func(*z3.Context) (*Graph, error)
	source string // the CHC problem's text
}

// graphIn returns the problem's graph usable in ctx: the graph itself
// when it holds no terms (JSON models), else a fresh parse.
func (p *Problem) graphIn(ctx *z3.Context) (*Graph, error) {
	if p.Graph.Ctx == nil {
		return p.Graph, nil
	}
	if p.reload == nil {
		return nil, fmt.Errorf("prove: the graph of %s cannot be rebuilt in another context", p.Graph.Name)
	}
	return p.reload(ctx)
}

// Options tune a proof attempt.
type Options struct {
	MaxK           int      // k-induction up to this k (Wahl's numbering); default 4
	BMCDepth       int      // bounded search depth for classifying CTIs; default 12
	TimeoutMS      int      // total budget; default 10000
	QueryTimeoutMS int      // per solver query; default 1200
	Layers         []string // triple, kind, houdini, learn, intervals, spacer; default all
	Infer          bool     // also report the strongest RSCs Houdini finds per node
	// Workers is how many layers may run at once: 1 runs them in turn
	// (Spacer in two slices); 0 means 2 when the machine has two or more
	// CPUs. Each concurrent layer has its own Z3 context.
	Workers int
	// SpacerSlice is Spacer's first slice when layers run in turn, in
	// Z3's resource units (its rlimit), not in wall time: the work done
	// in it, and so every term it leaves in the shared context, does not
	// depend on the machine's load (issue 38). Default 120,000: about
	// 300 ms on a 2-core machine running other work (docs/rsc.md).
	SpacerSlice uint32
	// Parallel is derived from Workers.
	Parallel bool
	// Start is when the budget began (zero: when Prove is called); a
	// command gives the process start, so that the budget covers loading
	// the input and starting up as well.
	Start time.Time
	// Abandon leaves the Z3 contexts Prove makes to the operating system
	// instead of deleting them (deleting one costs milliseconds): for a
	// process that exits right after.
	Abandon bool
	// Context cancels the attempt: every layer stops, and every property
	// not found violated ends undecided with the reason "cancelled".
	// Nil means never cancelled.
	Context context.Context
	// Progress, when set, is told the layer starting and how many
	// properties are proved or violated so far (see progress.Reporter);
	// nil costs nothing.
	Progress progress.Reporter
	// onCheck, when set, is shown every check the attempt makes (tests).
	onCheck checkHook
}

// DefaultTimeoutMS is the total budget when Options.TimeoutMS is not set.
const DefaultTimeoutMS = 10000

func (o *Options) defaults() {
	if o.MaxK <= 0 {
		o.MaxK = 4
	}
	if o.BMCDepth <= 0 {
		o.BMCDepth = 12
	}
	o.BMCDepth = max(o.BMCDepth, o.MaxK)
	if o.TimeoutMS <= 0 {
		o.TimeoutMS = DefaultTimeoutMS
	}
	if o.QueryTimeoutMS <= 0 {
		o.QueryTimeoutMS = 2000
	}
	if len(o.Layers) == 0 {
		o.Layers = AllLayers
	}
	if o.Workers <= 0 {
		o.Workers = min(2, runtime.NumCPU())
	}
	o.Parallel = o.Workers >= 2
	if o.SpacerSlice == 0 {
		o.SpacerSlice = defaultSpacerSlice
	}
	if o.Start.IsZero() {
		o.Start = time.Now()
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
}

// AllLayers are the layers Prove runs by default, in order.
var AllLayers = []string{"triple", "kind", "learn", "houdini", "intervals", "spacer"}

func (o *Options) layer(name string) bool {
	for _, l := range o.Layers {
		if l == name {
			return true
		}
	}
	return false
}

// Prove runs the layers on the problem's properties. Properties found
// violated are set aside and the rest are tried again, so one real bug
// does not hide what can be proved about the others.
func Prove(p *Problem, opts Options) (*Result, error) {
	opts.defaults()
	start := time.Now()
	r := &Result{Input: p.Graph.Name, Props: make([]PropResult, len(p.Props)), abandon: opts.Abandon}
	for i, pr := range p.Props {
		r.Props[i] = PropResult{ID: pr.ID, Node: p.Graph.Nodes[pr.Node].Name, Formula: format(pr.Formula), Source: pr.Source, Status: Unknown}
	}
	run := &attempt{p: p, opts: opts, r: r, deadline: opts.Start.Add(time.Duration(opts.TimeoutMS) * time.Millisecond)}
	run.stops.onCheck = opts.onCheck
	stopWatch := context.AfterFunc(opts.Context, run.cancel)
	defer stopWatch()
	defer run.settle()
	run.ctx, run.g = p.Graph.Ctx, p.Graph
	if run.ctx == nil {
		var err error
		if run.ctx, err = z3.NewContext(); err != nil {
			return nil, err
		}
		run.owned = append(run.owned, run.ctx)
	}
	run.hold(run.ctx)
	open := make([]int, len(p.Props))
	for i := range open {
		open[i] = i
	}
	for len(open) > 0 {
		t0 := time.Now()
		run.rounds++
		violated, err := run.round(open)
		if abandoned(err) {
			r.abandoned(open)
			break
		}
		if err != nil {
			return nil, err
		}
		for _, i := range open {
			r.Props[i].ElapsedMS = ms(time.Since(t0))
		}
		if len(violated) == 0 {
			break
		}
		open = minus(open, violated)
	}
	if opts.Infer {
		run.report("infer")
		if err := run.infer(); abandoned(err) {
			r.abandoned(nil)
		} else if err != nil {
			return nil, err
		}
	}
	if run.cancelled() {
		r.cancelled()
	}
	run.report("done")
	r.ElapsedMS = ms(time.Since(start))
	r.contexts = len(run.owned)
	r.finish()
	return r, nil
}

// abandoned reports that err comes from a check abandoned at the deadline,
// or from a later use of the context it retired.
func abandoned(err error) bool {
	return errors.Is(err, z3.ErrAbandoned) || errors.Is(err, z3.ErrClosed)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func minus(xs, ys []int) []int {
	drop := map[int]bool{}
	for _, y := range ys {
		drop[y] = true
	}
	var out []int
	for _, x := range xs {
		if !drop[x] {
			out = append(out, x)
		}
	}
	return out
}

// attempt is one Prove call's shared state.
type attempt struct {
	p    *Problem
	opts Options
	// ctx and g are the context the layers run in and the problem's
	// graph there: the problem's own at first, a fresh one after Spacer
	// was left the first (detach).
	ctx      *z3.Context
	g        *Graph
	r        *Result
	deadline time.Time
	// lent are the Spacer runs left a context of the attempt; owned are
	// the contexts the attempt made; holds end the holds on the contexts
	// the layers ran in (all for settle).
	lent  []*spacerRun
	owned []*z3.Context
	holds []func()
	// stop is the current round's stopper: a layer on another goroutine
	// that certifies a proof stops the layers of this one.
	stop *stopper
	// stops are every stopper made for the attempt: cancelling it stops
	// them all, and those made later start stopped.
	stops stoppers
	// rounds counts the rounds begun, for the progress snapshots.
	rounds int
}

// expired reports that the time budget is spent or the attempt cancelled.
func (a *attempt) expired() bool {
	return time.Until(a.deadline) < time.Millisecond || a.cancelled()
}

// newStopper is a stopper that the attempt's cancellation also stops.
func (a *attempt) newStopper() *stopper { return a.stops.add() }

// cancel stops every layer of the attempt.
func (a *attempt) cancel() { a.stops.stopAll() }

// cancelled reports that the attempt's context was cancelled.
func (a *attempt) cancelled() bool { return a.opts.Context.Err() != nil }

// hold keeps every term of ctx alive until the attempt settles
// (z3.Context.Hold): the IDs Z3 gives the terms, which order its search,
// then follow the layers' calls only, not the moments Go's garbage
// collector freed a term (docs/fcstm.md, "Run-to-run time"). A context
// lent to Spacer is used by Spacer's goroutine meanwhile; its hold ends
// in settle, after Spacer has ended, so only one goroutine at a time
// touches the context's count of holds.
func (a *attempt) hold(ctx *z3.Context) { a.holds = append(a.holds, ctx.Hold()) }

// release frees a Z3 context the attempt made (see Options.Abandon).
func (a *attempt) release(ctx *z3.Context) { releaseContext(ctx, a.opts.Abandon) }

// releaseContext deletes ctx, or abandons it when the process exits
// right after.
func releaseContext(ctx *z3.Context, abandon bool) {
	if abandon {
		ctx.Abandon()
		return
	}
	ctx.Close()
}

// left is what remains of the time budget in milliseconds, at least 1.
func (a *attempt) left() int { return int(max(time.Until(a.deadline).Milliseconds(), 1)) }

func (a *attempt) checker() (*checker, error) {
	c, err := newChecker(a.ctx, a.g, a.opts.QueryTimeoutMS, a.deadline)
	if err == nil {
		c.stop = a.stop
	}
	return c, err
}

// target is the per-node conjunction of the open properties.
func (a *attempt) target(open []int) []expr.Expr {
	t := make([]expr.Expr, len(a.p.Graph.Nodes))
	for _, i := range open {
		pr := &a.p.Props[i]
		if t[pr.Node] == nil {
			t[pr.Node] = pr.Formula
		} else {
			t[pr.Node] = bin(expr.Land, t[pr.Node], pr.Formula)
		}
	}
	return t
}

func (a *attempt) log(layer, outcome string, t0 time.Time, detail string) {
	a.r.Layers = append(a.r.Layers, LayerLog{Layer: layer, Outcome: outcome, ElapsedMS: ms(time.Since(t0)), Detail: detail})
}

// round runs the layers on the open properties and returns those found
// violated (with a confirmed trace). The triple rule runs first (a few
// queries; it proves inductive properties outright), then Spacer, in the
// same context, alone for a head start (or for a short slice when layers
// run in turn), then the bounded search, k-induction, learning, Houdini
// and intervals; the first certified proof ends the round.
func (a *attempt) round(open []int) ([]int, error) {
	phi := a.target(open)
	a.stop = a.newStopper()
	a.report("triple")
	c, err := a.checker()
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	comps, status, err := c.verifyAll(phi)
	if err != nil {
		return nil, err
	}
	a.r.Components = comps
	if allVerified(status) {
		a.log("triple", "proved", t0, fmt.Sprintf("%d queries", c.queries))
		a.proved(open, "triple", phi, 0)
		return nil, nil
	}
	a.log("triple", "ctis", t0, fmt.Sprintf("%d queries; %d CTIs", c.queries, countCTIs(comps)))
	var sp *spacerRun
	if a.opts.layer("spacer") {
		a.report("spacer")
		if sp, err = a.launchSpacer(c, phi, len(open) == len(a.p.Props)); err != nil {
			return nil, err
		}
		if sp != nil {
			defer sp.cancel()
		}
	}
	if done, err := a.takeReady(sp, open); done || err != nil {
		return nil, err
	}
	t0 = time.Now()
	a.report("bmc")
	out, err := a.bmc(phi, a.opts.BMCDepth, time.Until(a.deadline)/bmcShare)
	if err != nil {
		return nil, err
	}
	if out.Found {
		a.log("bmc", "violation", t0, fmt.Sprintf("depth %d", out.Depth))
		if sp != nil {
			sp.cancel()
		}
		a.stop = a.newStopper() // the search was not stopped: confirm the trace
		return a.violation(open, out)
	}
	a.log("bmc", "none", t0, noViolation(out.Depth, out.Reason))
	if done, err := a.strengthen(open, phi, out, sp); done || err != nil {
		return nil, err
	}
	if left := time.Until(a.deadline); left > 50*time.Millisecond && (out.Reason != "" || sp != nil && sp.unsafe()) {
		// escalate: the first search was cut short, or Spacer knows a
		// counterexample exists; search deeper for its trace
		t0 = time.Now()
		a.stop = a.newStopper()
		a.report("bmc")
		deeper, err := a.bmc(phi, 4*a.opts.BMCDepth, left)
		if err != nil {
			return nil, err
		}
		if deeper.Found {
			a.log("bmc", "violation", t0, fmt.Sprintf("depth %d", deeper.Depth))
			return a.violation(open, deeper)
		}
		a.log("bmc", "none", t0, noViolation(deeper.Depth, deeper.Reason))
		out = deeper
	}
	a.unknown(open, out)
	return nil, nil
}

// spacerHeadStart is how long the other layers wait for a parallel Spacer
// after the triple rule (at most a tenth of the budget): what Spacer
// solves in that time it solves as fast as alone, in one context, even
// when the machine's other core is busy with other work. Spacer alone
// proves the problems it proves at all mostly within a second; the
// layers that prove the others lose at most that.
const spacerHeadStart = time.Second

// spacerHeadShare: the head start is at most 1/spacerHeadShare of the
// budget.
const spacerHeadShare = 10

// bmcShare: the first bounded search gets a 1/bmcShare slice of the
// budget, so that it cannot starve the layers that prove; a deeper one
// runs at the end with what is left.
const bmcShare = 8

// bmc runs the bounded search to depth within slice (and the deadline).
func (a *attempt) bmc(phi []expr.Expr, depth int, slice time.Duration) (*bmcOutcome, error) {
	c, err := a.checker()
	if err != nil {
		return nil, err
	}
	if end := time.Now().Add(slice); end.Before(c.deadline) {
		c.deadline = end
	}
	return searchViolation(c, phi, depth)
}

// takeReady records Spacer's outcome if it has one.
func (a *attempt) takeReady(sp *spacerRun, open []int) (bool, error) {
	if sp == nil {
		return false, nil
	}
	return a.take(sp, open)
}

func suffix(reason string) string {
	if reason == "" {
		return ""
	}
	return " (" + reason + ")"
}

func allVerified(status []string) bool {
	for _, s := range status {
		if s != Verified {
			return false
		}
	}
	return true
}

func countCTIs(comps []ComponentResult) int {
	n := 0
	for _, c := range comps {
		n += len(c.CTIs)
	}
	return n
}

// ran reports whether layer ran to its end in this attempt (proved or
// failed, not cut short).
func (a *attempt) ran(layer string) bool {
	for _, l := range a.r.Layers {
		if l.Layer == layer && (l.Outcome == "proved" || l.Outcome == "failed") {
			return true
		}
	}
	return false
}

// strengthen runs k-induction, learning, Houdini and interval propagation
// in that order, checking between them whether Spacer has proved the
// properties, then gives Spacer the rest of the budget; done reports that
// the open properties were proved.
func (a *attempt) strengthen(open []int, phi []expr.Expr, bmc *bmcOutcome, sp *spacerRun) (bool, error) {
	if a.expired() {
		// Each layer would spend time building its queries only to have
		// them answered unknown: record that none ran.
		a.log("strengthen", "skipped", time.Now(), "no time left")
		return false, nil
	}
	layers := []struct {
		name string
		run  func() (bool, error)
	}{
		{"kind", func() (bool, error) { return a.kindLayer(open, phi, bmc) }},
		{"learn", func() (bool, error) { return a.learnLayer(open, phi) }},
		{"houdini", func() (bool, error) {
			if a.opts.layer("learn") && a.ran("learn") {
				return false, nil // learning's candidates include Houdini's
			}
			return a.houdiniLayer(open, phi)
		}},
		{"intervals", func() (bool, error) { return a.intervalsLayer(open, phi) }},
	}
	for _, l := range layers {
		if done, err := a.takeReady(sp, open); done || err != nil {
			return done, err
		}
		if sp != nil && sp.unsafe() {
			break // a counterexample exists: no proof to look for, the time goes to its trace
		}
		if !a.opts.layer(l.name) || a.stop.isStopped() || !time.Now().Before(a.deadline) {
			continue
		}
		a.report(l.name)
		if done, err := l.run(); done || err != nil {
			return done, err
		}
	}
	if sp == nil {
		return false, nil
	}
	return a.finishSpacer(sp, open, phi)
}

// kindLayer tries k-induction when the bounded search covered its base
// case, and re-checks a success on a fresh solver.
func (a *attempt) kindLayer(open []int, phi []expr.Expr, bmc *bmcOutcome) (bool, error) {
	maxK := min(a.opts.MaxK, bmc.Depth+1) // the search covered the base case up to here
	if maxK < 2 {
		return false, nil
	}
	t0 := time.Now()
	c, err := a.checker()
	if err != nil {
		return false, err
	}
	k, why, err := kInduction(c, phi, maxK)
	if err != nil {
		return false, err
	}
	if k > 0 {
		ok, err := a.recheckK(phi, k)
		if err != nil {
			return false, err
		}
		if ok {
			a.log("kind", "proved", t0, fmt.Sprintf("k = %d; re-checked on a fresh solver", k))
			a.proved(open, fmt.Sprintf("k-induction (k=%d)", k), phi, k)
			return true, nil
		}
		why = fmt.Sprintf("k = %d did not pass the re-check", k)
	}
	a.log("kind", "failed", t0, why)
	return false, nil
}

// recheckK re-runs the k-induction step on a fresh context, independent of
// the run that found k (the base case is the bounded search already done
// to depth ≥ k−1).
func (a *attempt) recheckK(phi []expr.Expr, k int) (bool, error) {
	if a.expired() {
		return false, nil
	}
	if a.g.Ctx != nil {
		c, err := a.checker() // CHC terms live in their context: fresh solver instead
		if err != nil {
			return false, err
		}
		got, _, err := kInduction(c, phi, k)
		return got == k, err
	}
	ctx, err := z3.NewContext()
	if err != nil {
		return false, err
	}
	defer a.release(ctx)
	defer ctx.Hold()()
	c, err := newChecker(ctx, a.g, a.opts.QueryTimeoutMS, a.deadline)
	if err != nil {
		return false, err
	}
	c.stop = a.stop
	got, _, err := kInduction(c, phi, k)
	return got == k, err
}

func (a *attempt) houdiniLayer(open []int, phi []expr.Expr) (bool, error) {
	t0 := time.Now()
	c, err := a.checker()
	if err != nil {
		return false, err
	}
	cands, err := mineCandidates(c, phi)
	if errors.Is(err, errCandidatesTimeout) {
		a.log("houdini", "unknown", t0, err.Error())
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return a.closeWithHoudini("houdini", t0, c, cands, open, phi, fmt.Sprintf("%d candidates", countAll(cands)))
}

// closeWithHoudini keeps the inductive subset of the candidates, simplifies
// it, re-checks it independently against the properties, and records the
// layer's outcome; done reports that the open properties were proved.
func (a *attempt) closeWithHoudini(layer string, t0 time.Time, c *checker, cands [][]expr.Expr, open []int, phi []expr.Expr, what string) (bool, error) {
	inv, err := houdini(c, cands)
	if err != nil {
		a.log(layer, "unknown", t0, err.Error())
		return false, nil
	}
	rsc, err := simplifyAll(c, inv)
	if err != nil {
		return false, err
	}
	ok, why, err := a.recheck(rsc, phi)
	if err != nil {
		return false, err
	}
	if !ok {
		a.log(layer, "failed", t0, fmt.Sprintf("%s, %d queries; %s", what, c.queries, why))
		return false, nil
	}
	a.log(layer, "proved", t0, fmt.Sprintf("%s, %d queries; re-checked by the triple rule", what, c.queries))
	a.proved(open, layer, rsc, 0)
	return true, nil
}

// noViolation describes a bounded search that found nothing: the deepest
// depth it completed, or that it completed none (depth < 0: cut off
// before depth 0 was decided).
func noViolation(depth int, reason string) string {
	if depth < 0 {
		return "no depth decided" + suffix(reason)
	}
	return fmt.Sprintf("no violation within depth %d%s", depth, suffix(reason))
}
