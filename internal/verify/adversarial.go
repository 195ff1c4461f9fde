package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// a1Injection injects every event in every non-terminal state and reports
// the (state, event) pairs no transition handles (the pairs of S5).
func (e *env) a1Injection() report.Check {
	c := report.Check{ID: "A1", Name: "Unexpected Event Injection"}
	pairs, total := UnhandledPairs(e.mc, e.opts.MaxFindings)
	for _, s := range pairs {
		f := finding("A1_UNHANDLED_EVENT", report.Warning, fmt.Sprintf("Injecting %q in state %q has no handler", s[1], s[0]))
		f.Target = s[0]
		f.Evidence = report.O("event", s[1])
		c.Findings = append(c.Findings, f)
	}
	c.Unlisted.Warnings = total - len(pairs)
	c.Detail = fmt.Sprintf("Every injected event has a handler in every non-terminal state (%d events)", len(e.mc.Events))
	if total > 0 {
		c.Detail = fmt.Sprintf("%s without a handler", plural(total, "injection", "injections"))
	}
	return c
}

// firstOutcome applies e to r and returns its first outcome, or r itself
// when e is not enabled (or is not an event of the model).
func firstOutcome(mc *runtime.Machine, r []int64, ev string, buf *runtime.StepBuffer) []int64 {
	i := mc.EventIndex(ev)
	if i < 0 {
		return r
	}
	if outs := mc.Step(r, i, buf); len(outs) > 0 {
		return append([]int64(nil), outs[0].Next...)
	}
	return r
}

// a2Race checks every concurrent pair on every reachable runtime: taking
// e1 then e2 must end where e2 then e1 ends. One finding per pair, at the
// first runtime (exploration order) where the orders differ.
func (e *env) a2Race() report.Check {
	c := report.Check{ID: "A2", Name: "Race Interleaving"}
	if len(e.m.ConcurrentPairs) == 0 {
		c.Detail = "No concurrentPairs declared"
		return c
	}
	mc := e.mc
	x := e.reached()
	var buf runtime.StepBuffer
	var open [][2]string
	for k, pair := range e.m.ConcurrentPairs {
		r, path, found := e.first(e.pairProbe(k), func(r []int64, _ bool) bool { _, _, ok := races(mc, r, pair, &buf); return ok })
		if found {
			r12, r21, _ := races(mc, r, pair, &buf)
			f := finding("A2_ORDER_DEPENDENT", report.Warning, fmt.Sprintf("Events %q and %q race in state %q: the order in which they arrive changes the outcome", pair[0], pair[1], mc.States[r[0]]))
			f.Target = []string{pair[0], pair[1]}
			f.Evidence = report.O("e1ThenE2", mc.RuntimeValue(r12), "e2ThenE1", mc.RuntimeValue(r21), "at", mc.RuntimeValue(r))
			c.Findings = append(c.Findings, withPath(f, path))
		}
		if !found && x.truncated {
			open = append(open, pair)
		}
	}
	if len(open) > 0 {
		f := undecided("A2_UNDECIDED", fmt.Sprintf("the order independence of %s", plural(len(open), "concurrent pair", "concurrent pairs")), x.cap, x.n, x.capKind, "")
		f.Evidence = append(f.Evidence, report.KV{Key: "pairs", Value: pairsValue(open)})
		c.Findings = append(c.Findings, f)
	}
	n := len(e.m.ConcurrentPairs)
	dependent := len(c.Findings)
	if len(open) > 0 {
		dependent--
	}
	c.Detail = fmt.Sprintf("%d of %s order-dependent, %d not decided (%d runtime states checked)", dependent, plural(n, "concurrent pair", "concurrent pairs"), len(open), x.n)
	if len(c.Findings) == 0 {
		c.Detail = fmt.Sprintf("All %s commute on every reachable runtime state (%d checked)", plural(n, "concurrent pair", "concurrent pairs"), x.n)
	}
	return c
}

// races applies a concurrent pair's events to r in both orders (first
// outcomes) and reports whether the ends differ, with both ends (r12
// aliases nothing of buf).
func races(mc *runtime.Machine, r []int64, pair [2]string, buf *runtime.StepBuffer) (r12, r21 []int64, differ bool) {
	r12 = firstOutcome(mc, firstOutcome(mc, r, pair[0], buf), pair[1], buf)
	r21 = firstOutcome(mc, firstOutcome(mc, r, pair[1], buf), pair[0], buf)
	return r12, r21, !slices.Equal(r12, r21)
}

func pairsValue(pairs [][2]string) []any {
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = []string{p[0], p[1]}
	}
	return out
}

// a3Permutation applies the first maxPermutationEvents events of the
// sorted alphabet from the initial runtime in every order (disabled events
// skipped, first outcome taken) and reports when the final runtime
// depends on the order.
func (e *env) a3Permutation() report.Check {
	c := report.Check{ID: "A3", Name: "Order Permutation"}
	mc := e.mc
	k := min(e.opts.MaxPermutationEvents, len(mc.Events))
	if k < 2 {
		c.Detail = "Skipped: fewer than 2 events"
		return c
	}
	perm := make([]int, k)
	for i := range perm {
		perm[i] = i
	}
	var buf runtime.StepBuffer
	var finals []string
	examples := []any{}
	init := mc.Initial(make([]int64, mc.Width()))
	count := 0
	for {
		count++
		r := init
		names := make([]string, k)
		for j, p := range perm {
			names[j] = mc.Events[p]
			r = firstOutcome(mc, r, mc.Events[p], &buf)
		}
		if key := wordsKey(r); !slices.Contains(finals, key) {
			finals = append(finals, key)
			examples = append(examples, report.O("final", mc.States[r[0]], "example", strings.Join(names, ",")))
		}
		if !nextPermutation(perm) {
			break
		}
	}
	if len(finals) > 1 {
		f := finding("A3_ORDER_DEPENDENT", report.Warning, fmt.Sprintf("Applying events %s in different orders ends in %d different runtime states", quoteIDs(mc.Events[:k]), len(finals)))
		f.Evidence = report.O("examples", examples)
		c.Findings = append(c.Findings, f)
		c.Detail = fmt.Sprintf("%d permutations of the first %d events reach %d different runtime states", count, k, len(finals))
		return c
	}
	c.Detail = fmt.Sprintf("All %d permutations of the first %d events reach the same runtime state", count, k)
	return c
}

func wordsKey(r []int64) string {
	var b strings.Builder
	for _, x := range r {
		b.WriteString(strconv.FormatInt(x, 10))
		b.WriteByte(',')
	}
	return b.String()
}

// nextPermutation advances p to the next permutation in lexicographic
// order; false after the last one.
func nextPermutation(p []int) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// a5BoundaryBlast probes each boundaryChecks value: outside the declared
// range, or (with every other variable at its init) selecting no branch
// without a default, or several branches, in a group that reads the
// variable.
func (e *env) a5BoundaryBlast() report.Check {
	c := report.Check{ID: "A5", Name: "Boundary Blast"}
	if len(e.m.BoundaryChecks) == 0 {
		c.Detail = "No boundaryChecks declared"
		return c
	}
	mc := e.mc
	gs := groups(e.m)
	probes := 0
	for _, bc := range e.m.BoundaryChecks {
		v := e.m.VariableByName(bc.Variable)
		vi := mc.VarIndex(bc.Variable)
		for _, x := range bc.Values {
			probes++
			if (v.Min != nil && x < *v.Min) || (v.Max != nil && x > *v.Max) {
				f := finding("A5_OUT_OF_DOMAIN", report.Warning, fmt.Sprintf("Boundary value %d of %q lies outside its declared range %s", x, bc.Variable, jsonmodel.RangeText(v.Min, v.Max)))
				f.Target = bc.Variable
				f.Evidence = report.O("variable", bc.Variable, "value", x)
				if v.Min != nil {
					f.Evidence = append(f.Evidence, report.KV{Key: "min", Value: *v.Min})
				}
				if v.Max != nil {
					f.Evidence = append(f.Evidence, report.KV{Key: "max", Value: *v.Max})
				}
				c.Findings = append(c.Findings, f)
			}
			r := mc.Initial(make([]int64, mc.Width()))
			r[1+vi] = x
			lookup := func(name string) int64 { return r[1+mc.VarIndex(name)] }
			for _, gr := range gs {
				if f, ok := probeGroup(gr, bc.Variable, x, lookup); ok {
					c.Findings = append(c.Findings, f)
				}
			}
		}
	}
	c.Detail = fmt.Sprintf("%s outside the range or at a guard hole or overlap", plural(len(c.Findings), "probe", "probes"))
	if len(c.Findings) == 0 {
		c.Detail = fmt.Sprintf("All %s inside the range and selecting exactly one branch", plural(probes, "boundary value", "boundary values"))
	}
	return c
}

// probeGroup evaluates one group that reads the probed variable.
func probeGroup(gr *groupInfo, variable string, x int64, lookup func(string) int64) (report.Finding, bool) {
	reads := false
	for _, t := range gr.guarded {
		reads = reads || slices.Contains(t.Guard.Vars(), variable)
	}
	if !reads {
		return report.Finding{}, false
	}
	var fired []*jsonmodel.Transition
	for _, t := range gr.guarded {
		if t.Guard.Eval(lookup) {
			fired = append(fired, t)
		}
	}
	var f report.Finding
	switch {
	case len(fired) == 0 && len(gr.defaults) == 0:
		f = finding("A5_GUARD_HOLE", report.Warning, fmt.Sprintf("Probing %q = %d: group (%q, %q) has no true guard and no default", variable, x, gr.from, gr.event))
		fired = gr.guarded
	case len(fired) > 1:
		f = finding("A5_GUARD_OVERLAP", report.Warning, fmt.Sprintf("Probing %q = %d: group (%q, %q) has %d true guards", variable, x, gr.from, gr.event, len(fired)))
	default:
		return report.Finding{}, false
	}
	f.Target = variable
	f.Evidence = report.O("variable", variable, "value", x, "from", gr.from, "event", gr.event, "branches", targets(fired))
	return f, true
}

// a8IdempotentReplay redelivers each idempotent event right after it
// fired, on every reachable runtime where it is enabled: the replay must
// be accepted and must leave the runtime unchanged.
func (e *env) a8IdempotentReplay() report.Check {
	c := report.Check{ID: "A8", Name: "Idempotent Replay"}
	if len(e.m.IdempotentEvents) == 0 {
		c.Detail = "No idempotentEvents declared"
		return c
	}
	x := e.reached()
	var open []string
	for j, ev := range e.m.IdempotentEvents {
		fs := e.replay(j, ev)
		c.Findings = append(c.Findings, fs...)
		if x.truncated && !slices.ContainsFunc(fs, func(f report.Finding) bool { return f.Code == "A8_NOT_IDEMPOTENT" }) {
			open = append(open, ev)
		}
	}
	if len(open) > 0 {
		f := undecided("A8_UNDECIDED", "the idempotence of "+quoteIDs(open), x.cap, x.n, x.capKind, "")
		f.Evidence = append(f.Evidence, report.KV{Key: "events", Value: open})
		c.Findings = append(c.Findings, f)
	}
	n := len(e.m.IdempotentEvents)
	c.Detail = fmt.Sprintf("%s about %s (%d runtime states checked)", plural(len(c.Findings), "finding", "findings"), plural(n, "idempotent event", "idempotent events"), x.n)
	if len(c.Findings) == 0 {
		c.Detail = fmt.Sprintf("All %s are replay-safe on every reachable runtime state (%d checked)", plural(n, "idempotent event", "idempotent events"), x.n)
	}
	return c
}

// The two ways an idempotent event's redelivery fails (A8).
const (
	replayDropped = iota // not enabled after it fired: A8_NOT_REPLAYABLE
	replayChanged        // changes the runtime: A8_NOT_IDEMPOTENT
)

// replay returns the first A8_NOT_REPLAYABLE and the first
// A8_NOT_IDEMPOTENT finding of the j-th idempotent event, in exploration
// order.
func (e *env) replay(j int, ev string) []report.Finding {
	mc := e.mc
	if mc.EventIndex(ev) < 0 {
		return nil
	}
	var once, twice runtime.StepBuffer
	var out []report.Finding
	for _, kind := range []int{replayDropped, replayChanged} {
		test := func(r []int64, _ bool) bool { _, ok := replayAt(mc, r, ev, kind, &once, &twice); return ok }
		if r, path, ok := e.first(e.replayProbe(j, kind), test); ok {
			if f, ok := replayAt(mc, r, ev, kind, &once, &twice); ok {
				out = append(out, withPath(f, path))
			}
		}
	}
	return out
}

// replayAt delivers ev at r, then again after each outcome, and returns
// the finding (without its path) of the first redelivery that fails the
// way kind says, if one does.
func replayAt(mc *runtime.Machine, r []int64, ev string, kind int, once, twice *runtime.StepBuffer) (report.Finding, bool) {
	ei := mc.EventIndex(ev)
	if ei < 0 {
		return report.Finding{}, false
	}
	for _, o := range mc.Step(r, ei, once) {
		outs := mc.Step(o.Next, ei, twice)
		if kind == replayDropped && len(outs) == 0 {
			f := finding("A8_NOT_REPLAYABLE", report.Warning, fmt.Sprintf("Redelivering %q after it moved %q to %q is dropped: the event is not enabled there", ev, mc.States[r[0]], mc.States[o.Next[0]]))
			f.Target = ev
			f.Evidence = report.O("event", ev, "once", mc.RuntimeValue(o.Next))
			return f, true
		}
		for _, o2 := range outs {
			if kind == replayChanged && !slices.Equal(o2.Next, o.Next) {
				f := finding("A8_NOT_IDEMPOTENT", report.Error, fmt.Sprintf("Delivering %q twice from state %q is not idempotent: the redelivery changes %s to %s", ev, mc.States[r[0]], mc.Key(o.Next), mc.Key(o2.Next)))
				f.Target = ev
				f.Evidence = report.O("event", ev, "once", mc.RuntimeValue(o.Next), "twice", mc.RuntimeValue(o2.Next))
				return f, true
			}
		}
	}
	return report.Finding{}, false
}
