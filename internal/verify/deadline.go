package verify

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// a14Deadline checks residency deadlines: a tick event that keeps the
// machine in a state declaring maxTicks may not take its per-entry tick
// count past maxTicks. The breadth-first search over (runtime, ticks)
// gives each such state's shortest miss. Time advances only on tick
// events; dense time is out of scope.
func (e *env) a14Deadline() report.Check {
	c := report.Check{ID: "A14", Name: "Deadline"}
	var bounded []int
	for i, s := range e.m.States {
		if s.MaxTicks != nil {
			bounded = append(bounded, i)
		}
	}
	switch {
	case len(bounded) == 0:
		c.Detail = "No state declares maxTicks"
		return c
	case len(e.m.TickEvents) == 0:
		for _, i := range bounded {
			s := e.m.States[i]
			f := finding("A14_NO_TICK_EVENTS", report.Warning, fmt.Sprintf("State %q declares maxTicks %d but the model declares no tickEvents, so its deadline is never checked", s.ID, *s.MaxTicks))
			f.Target = s.ID
			f.Evidence = report.O("state", s.ID, "maxTicks", *s.MaxTicks)
			c.Findings = append(c.Findings, f)
		}
		c.Detail = "Deadlines declared without tickEvents"
		return c
	}
	var ds deadlineResult
	if e.partitioned() {
		out := e.partitionedOutcome()
		ds = deadlineResult{stop: out.capKind, cap: out.cap, explored: out.explored}
	} else {
		ds = e.deadlineSearch()
	}
	misses := ds.misses
	for _, i := range bounded {
		if f, ok := misses[i]; ok {
			c.Findings = append(c.Findings, f)
		}
	}
	var open []string
	if ds.stop != "" {
		e.stopped(ds.stop)
		for _, i := range bounded {
			if _, ok := misses[i]; !ok {
				open = append(open, e.m.States[i].ID)
			}
		}
	}
	if len(open) > 0 {
		f := undecided("A14_UNDECIDED", "the deadlines of "+quoteIDs(open), ds.cap, ds.explored, ds.stop, "")
		f.Evidence = append(f.Evidence, report.KV{Key: "states", Value: open})
		c.Findings = append(c.Findings, f)
	}
	c.Detail = fmt.Sprintf("%d of %s missed, %d not decided", len(misses), plural(len(bounded), "deadline", "deadlines"), len(open))
	if len(misses)+len(open) == 0 {
		c.Detail = fmt.Sprintf("All %s met (%d (runtime, ticks) pairs explored)", plural(len(bounded), "deadline", "deadlines"), ds.explored)
	}
	return c
}

// deadlineSpec is the (runtime, ticks) monitor of the deadlines.
// Decision: ticks are counted only in states that declare maxTicks
// (elsewhere the counter stays 0), which keeps the product finite without
// changing any verdict; a missing branch is not explored further (Done).
type deadlineSpec struct {
	limit    []int64 // per state: maxTicks, or -1
	isTick   []bool  // per event
	bounded  int     // states with a limit
	maxLimit int64
	mc       *runtime.Machine
}

// deadlines returns the deadline monitor, or nil when no state declares
// maxTicks or no tick event exists.
func (e *env) deadlines() *deadlineSpec {
	if len(e.m.TickEvents) == 0 {
		return nil
	}
	d := &deadlineSpec{mc: e.mc}
	for _, s := range e.m.States {
		l := int64(-1)
		if s.MaxTicks != nil {
			l = *s.MaxTicks
			d.bounded++
			d.maxLimit = max(d.maxLimit, l)
		}
		d.limit = append(d.limit, l)
	}
	if d.bounded == 0 {
		return nil
	}
	for _, ev := range e.mc.Events {
		d.isTick = append(d.isTick, slices.Contains(e.m.TickEvents, ev))
	}
	return d
}

// step advances the tick count; a miss is a finding keyed by its state.
func (d *deadlineSpec) step(g *explore.Graph, from, t int, next []int64, ticks int64) (int64, int) {
	st := int(next[0])
	switch {
	case g.StateOf(from) != st || d.limit[st] < 0:
		ticks = 0
	case d.isTick[d.mc.EventIndex(d.mc.Transition(t).Event)]:
		ticks++
	}
	if d.limit[st] < 0 || ticks <= d.limit[st] {
		return ticks, -1
	}
	return ticks, st
}

// miss renders the first miss of a state.
func (d *deadlineSpec) miss(g *explore.Graph, f explore.Flag) report.Finding {
	to := d.mc.Transition(f.Transition).To
	m := finding("A14_DEADLINE_MISS", report.Error, fmt.Sprintf("State %q is still resident after %d ticks, past its maxTicks %d", to, f.Value, d.limit[f.Key]))
	m.Target = to
	m.Evidence = report.O("state", to, "maxTicks", d.limit[f.Key], "ticks", f.Value)
	return withPath(m, append(g.Path(f.From), g.StepOf(f.Transition)))
}

// deadlineResult is what the (runtime, ticks) search found.
type deadlineResult struct {
	misses map[int]report.Finding // the shortest miss per state
	// stop is the capKind of the limit that stopped the search, "" when
	// none did.
	stop          string
	cap, explored int
}

// deadlineSearch returns the shortest miss of each state: read off the
// plain exploration when its monitor tells, else by the search over
// (runtime, ticks), which ends once every bounded state has missed.
func (e *env) deadlineSearch() deadlineResult {
	d := e.deadlines()
	if out, ok := e.riddenDeadlines(d); ok {
		return out
	}
	misses := map[int]report.Finding{}
	w := e.mc.Width()
	s := explore.Search{Machine: e.mc, Extra: 1, Cap: e.opts.MaxStates, Done: e.opts.Done, Progress: e.opts.Progress, Task: "A14 deadlines",
		OnEdge: func(g *explore.Graph, from, t int, next []int64) explore.Edge {
			v, st := d.step(g, from, t, next, next[w])
			if st < 0 {
				next[w] = v
				return explore.Keep
			}
			if _, seen := misses[st]; !seen {
				misses[st] = d.miss(g, explore.Flag{Key: st, From: from, Transition: t, Value: v})
				if len(misses) == d.bounded {
					return explore.Stop
				}
			}
			return explore.Prune
		}, Spill: e.spillNow()}
	g := e.note(s.Run())
	out := deadlineResult{misses: misses, cap: g.Cap, explored: g.Len()}
	if g.Truncated {
		out.stop = capKindOf(g)
	}
	return out
}

// riddenDeadlines reads the deadline search's result off the plain
// exploration, when its monitor followed the pair search exactly far
// enough.
func (e *env) riddenDeadlines(d *deadlineSpec) (deadlineResult, bool) {
	res := e.ridden(e.riders().deadline, true)
	if res == nil {
		return deadlineResult{}, false
	}
	g := e.explored()
	out := deadlineResult{misses: map[int]report.Finding{}, cap: e.opts.MaxStates}
	for _, f := range res.Flags {
		if res.Exact(f.At) && f.At < res.Overflow {
			out.misses[f.Key] = d.miss(g, f)
		}
	}
	switch {
	case len(out.misses) == d.bounded:
		return out, true
	case res.Overflow != explore.NoKey && res.Exact(res.Overflow):
		out.stop, out.explored = "maxStates", e.opts.MaxStates+1
		return out, true
	case res.Complete() && !g.Truncated:
		out.explored = res.Live
		return out, true
	}
	return deadlineResult{}, false
}
