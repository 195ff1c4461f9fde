package verify

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/report"
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
	misses, g := e.deadlineSearch()
	for _, i := range bounded {
		if f, ok := misses[i]; ok {
			c.Findings = append(c.Findings, f)
		}
	}
	var open []string
	if g.Truncated {
		e.truncated = true
		for _, i := range bounded {
			if _, ok := misses[i]; !ok {
				open = append(open, e.m.States[i].ID)
			}
		}
	}
	if len(open) > 0 {
		f := undecided("A14_UNDECIDED", "the deadlines of "+quoteIDs(open), g.Cap, g.Len(), "maxStates", "")
		f.Evidence = append(f.Evidence, report.KV{Key: "states", Value: open})
		c.Findings = append(c.Findings, f)
	}
	c.Detail = fmt.Sprintf("%d of %s missed, %d not decided", len(misses), plural(len(bounded), "deadline", "deadlines"), len(open))
	if len(misses)+len(open) == 0 {
		c.Detail = fmt.Sprintf("All %s met (%d (runtime, ticks) pairs explored)", plural(len(bounded), "deadline", "deadlines"), g.Len())
	}
	return c
}

// deadlineSearch runs the (runtime, ticks) search and returns the shortest
// miss of each state. Decision: ticks are counted only in states that
// declare maxTicks (elsewhere the counter stays 0), which keeps the product
// finite without changing any verdict; a missing branch is not explored
// further.
func (e *env) deadlineSearch() (map[int]report.Finding, *explore.Graph) {
	mc := e.mc
	w := mc.Width()
	limit := make([]int64, len(mc.States))
	for i, s := range e.m.States {
		limit[i] = -1
		if s.MaxTicks != nil {
			limit[i] = *s.MaxTicks
		}
	}
	left := 0
	for _, l := range limit {
		if l >= 0 {
			left++
		}
	}
	isTick := make([]bool, len(mc.Events))
	for i, ev := range mc.Events {
		isTick[i] = slices.Contains(e.m.TickEvents, ev)
	}
	misses := map[int]report.Finding{}
	s := explore.Search{Machine: mc, Extra: 1, Cap: e.opts.MaxStates, Done: e.opts.Done,
		OnEdge: func(g *explore.Graph, from, t int, next []int64) explore.Edge {
			tr := mc.Transition(t)
			st := int(next[0])
			switch {
			case g.StateOf(from) != st || limit[st] < 0:
				next[w] = 0
			case isTick[mc.EventIndex(tr.Event)]:
				next[w]++
			}
			if limit[st] < 0 || next[w] <= limit[st] {
				return explore.Keep
			}
			if _, seen := misses[st]; !seen {
				f := finding("A14_DEADLINE_MISS", report.Error, fmt.Sprintf("State %q is still resident after %d ticks, past its maxTicks %d", tr.To, next[w], limit[st]))
				f.Target = tr.To
				f.Evidence = report.O("state", tr.To, "maxTicks", limit[st], "ticks", next[w])
				misses[st] = withPath(f, append(g.Path(from), g.StepOf(t)))
				if left--; left == 0 {
					return explore.Stop
				}
			}
			return explore.Prune
		}}
	return misses, s.Run()
}
