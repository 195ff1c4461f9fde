package verify

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// The path invariants that a finite monitor decides (event-before-state,
// sequence, atomicity, and the deadlines) each have a search of their own
// over (runtime, monitor value) pairs. Their monitors also ride on the
// plain exploration, as values beside the nodes: when every path to a
// runtime gives the monitor the same value, that one search answers for the
// pair search exactly — same witness, same cap verdict, same count — and
// verify runs a pair search only for the invariants it leaves open.

// stepFunc advances one monitor over an edge: transition t from node from
// (value m) to the runtime next. It returns the new value and, for a
// finding, its key (else -1).
type stepFunc func(g *explore.Graph, from, t int, next []int64, m int64) (int64, int)

// riders are the monitors of one env's plain exploration.
type riders struct {
	monitors []explore.Monitor
	byInv    map[*jsonmodel.Invariant]int // monitor index per path invariant
	deadline int                          // monitor index of the deadlines, or -1
}

// newRiders builds the monitors of the env's own invariants and deadlines.
func (e *env) newRiders() *riders {
	r := &riders{byInv: map[*jsonmodel.Invariant]int{}, deadline: -1}
	add := func(m explore.Monitor) int {
		r.monitors = append(r.monitors, m)
		return len(r.monitors) - 1
	}
	for i := range e.m.Invariants {
		inv := &e.m.Invariants[i]
		switch inv.Kind {
		case jsonmodel.EventBeforeState:
			if !e.initialIn(inv.State) {
				r.byInv[inv] = add(explore.Monitor{Init: 0, Done: 2, Steady: []int64{1}, Small: true, Step: e.beforeStep(inv)})
			}
		case jsonmodel.Sequence:
			r.byInv[inv] = add(explore.Monitor{Init: 0, Done: int64(len(inv.Events)), Small: len(inv.Events) < 255, Step: sequenceStep(e, inv)})
		case jsonmodel.Atomicity:
			r.byInv[inv] = add(explore.Monitor{Init: atomIdle, Done: atomClosed, Small: true, Step: e.atomicityStep(inv)})
		}
	}
	if d := e.deadlines(); d != nil {
		r.deadline = add(explore.Monitor{Init: 0, Done: -1, Small: d.maxLimit < 254, Step: d.step})
	}
	return r
}

// initialIn reports whether the initial runtime is in the state.
func (e *env) initialIn(state string) bool {
	return e.mc.Initial(make([]int64, e.mc.Width()))[0] == int64(e.mc.StateIndex(state))
}

// ridden returns the plain exploration's result for monitor k, or nil
// when the invariant has no monitor there (a search that carries none,
// such as a partitioned one's, has no Monitors).
func (e *env) ridden(k int, ok bool) *explore.MonitorResult {
	if !ok || k < 0 || k >= len(e.explored().Monitors) {
		return nil
	}
	return e.explored().Monitors[k]
}

// monitorOutcome is the outcome the pair search of a one-finding monitor
// would have had, read off the plain exploration; ok is false when the
// exploration cannot tell (a conflict, or it stopped first).
func (e *env) monitorOutcome(res *explore.MonitorResult, what func(explore.Flag) string) (invariantOutcome, bool) {
	if res == nil {
		return invariantOutcome{}, false
	}
	g := e.explored()
	var v *explore.Flag
	if len(res.Flags) > 0 {
		v = &res.Flags[0]
	}
	switch {
	case v != nil && res.Exact(v.At) && v.At < res.Overflow:
		return invariantOutcome{violated: true, path: append(g.Path(v.From), g.StepOf(v.Transition)), what: what(*v), explored: res.Live}, true
	case res.Overflow != explore.NoKey && res.Exact(res.Overflow) && (v == nil || res.Overflow < v.At):
		return invariantOutcome{undecided: true, explored: e.opts.MaxStates + 1, capKind: "maxStates", cap: e.opts.MaxStates}, true
	case v == nil && res.Complete() && !g.Truncated:
		return invariantOutcome{explored: res.Live, capKind: "maxStates", cap: e.opts.MaxStates}, true
	}
	return invariantOutcome{}, false
}

// pairSearch runs the search over (runtime, monitor value) of one monitor,
// the way its check always has: a flag ends it with the violation, Done
// prunes. It is the fallback when the plain exploration leaves the
// invariant open.
func (e *env) pairSearch(init, done int64, step stepFunc, what func(explore.Flag) string) invariantOutcome {
	mc := e.mc
	w := mc.Width()
	var out invariantOutcome
	s := explore.Search{Machine: mc, Extra: 1, InitExtra: []int64{init}, Cap: e.opts.MaxStates, Done: e.opts.Done, Progress: e.opts.Progress, Task: "invariant",
		OnEdge: func(g *explore.Graph, from, t int, next []int64) explore.Edge {
			v, flag := step(g, from, t, next, next[w])
			if flag >= 0 {
				out = invariantOutcome{violated: true, path: append(g.Path(from), g.StepOf(t)),
					what: what(explore.Flag{Key: flag, From: from, Transition: t, Value: v})}
				return explore.Stop
			}
			if v == done {
				return explore.Prune
			}
			next[w] = v
			return explore.Keep
		}, Spill: e.spillNow()}
	g := e.note(s.Run())
	if out.violated {
		out.explored = g.Len()
		return out
	}
	return searchOutcome(g)
}

// beforeStep is the event-before-state monitor: 1 once the event fired
// (and for good: it is steady, though not Done, since the pair search
// stores the runtimes seen after the event as well); a finding when the
// state is entered at 0.
func (e *env) beforeStep(inv *jsonmodel.Invariant) stepFunc {
	mc := e.mc
	target := int64(mc.StateIndex(inv.State))
	fires := make([]bool, len(mc.Model.Transitions))
	for t := range fires {
		fires[t] = mc.Transition(t).Event == inv.Event
	}
	return func(_ *explore.Graph, _, t int, next []int64, m int64) (int64, int) {
		if fires[t] {
			m = 1
		}
		if next[0] == target && m == 0 {
			return m, 0
		}
		return m, -1
	}
}

// sequenceStep is the sequence monitor: the number of listed events seen
// in order (all of them: Done); a finding when a later listed event comes
// first.
func sequenceStep(e *env, inv *jsonmodel.Invariant) stepFunc {
	evs := inv.Events
	return func(_ *explore.Graph, _, t int, _ []int64, p int64) (int64, int) {
		ev := e.mc.Transition(t).Event
		switch {
		case ev == evs[p]:
			return p + 1, -1
		case slices.Contains(evs[p+1:], ev):
			return p, 0
		}
		return p, -1
	}
}

// sequenceWhat describes a sequence violation.
func sequenceWhat(e *env, inv *jsonmodel.Invariant) func(explore.Flag) string {
	return func(f explore.Flag) string {
		return fmt.Sprintf("Event %q occurred before %q", e.mc.Transition(f.Transition).Event, inv.Events[f.Value])
	}
}

// atomicityStep is the atomicity monitor (idle, open; closed is Done); a
// finding, valued 1 or 2 by its kind, when an open group is left by an
// unlisted event or reaches a terminal state.
func (e *env) atomicityStep(inv *jsonmodel.Invariant) stepFunc {
	terminal := make([]bool, len(e.mc.States))
	for i, st := range e.m.States {
		terminal[i] = st.Terminal
	}
	return func(_ *explore.Graph, _, t int, next []int64, m int64) (int64, int) {
		ev := e.mc.Transition(t).Event
		switch m {
		case atomIdle:
			if slices.Contains(inv.Events, ev) {
				m = atomOpen
			}
		case atomOpen:
			switch {
			case ev == inv.Commit || (inv.Rollback != "" && ev == inv.Rollback):
				return atomClosed, -1
			case !slices.Contains(inv.Events, ev):
				return 1, 0
			}
		}
		if m == atomOpen && terminal[next[0]] {
			return 2, 0
		}
		return m, -1
	}
}

// atomicityWhat describes an atomicity violation.
func (e *env) atomicityWhat(inv *jsonmodel.Invariant) func(explore.Flag) string {
	return func(f explore.Flag) string {
		if f.Value == 1 {
			return fmt.Sprintf("Left atomic scope via %q before %q", e.mc.Transition(f.Transition).Event, inv.Commit)
		}
		return "Terminal state reached with incomplete atomic group"
	}
}
