package verify

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// pairGraphCap bounds A4's search over (state, held) nodes.
const pairGraphCap = 1000

// a4PairSymmetry follows each resource over the state graph (guards
// ignored), counting transitions on the acquire/release events and
// onEntry/onExit actions with those names as acquires and releases: no
// acquire while held, no terminal state while held, and from every
// holding node a release stays reachable.
func (e *env) a4PairSymmetry() report.Check {
	c := report.Check{ID: "A4", Name: "Pair Symmetry"}
	if len(e.m.ResourcePairs) == 0 {
		c.Detail = "No resourcePairs declared"
		return c
	}
	for _, rp := range e.m.ResourcePairs {
		c.Findings = append(c.Findings, e.pairSymmetry(rp)...)
	}
	n := len(e.m.ResourcePairs)
	c.Detail = fmt.Sprintf("%s about %s", plural(len(c.Findings), "finding", "findings"), plural(n, "resource", "resources"))
	if len(c.Findings) == 0 {
		c.Detail = fmt.Sprintf("Every acquire of %s is matched by a reachable release", plural(n, "resource", "resources"))
	}
	return c
}

// pairNode is a node of A4's graph: a state and whether the resource is held.
type pairNode struct {
	state  int
	held   bool
	parent int // index of the parent node, -1 for the start
	via    int // transition from the parent
}

// effects applies a list of action or event names to the held flag and
// reports whether an acquire happened while the resource was held.
func effects(rp jsonmodel.ResourcePair, held bool, names ...[]string) (bool, bool) {
	reacquired := false
	for _, list := range names {
		for _, n := range list {
			switch n {
			case rp.AcquireEvent:
				reacquired = reacquired || held
				held = true
			case rp.ReleaseEvent:
				held = false
			}
		}
	}
	return held, reacquired
}

// releaseNamed reports whether the release name occurs on a transition or
// in an action list.
func releaseNamed(m *jsonmodel.Model, release string) bool {
	for _, t := range m.Transitions {
		if t.Event == release {
			return true
		}
	}
	for _, s := range m.States {
		if slices.Contains(s.OnEntry, release) || slices.Contains(s.OnExit, release) {
			return true
		}
	}
	return false
}

// pairSymmetry runs for one resource pair.
func (e *env) pairSymmetry(rp jsonmodel.ResourcePair) []report.Finding {
	m := e.m
	if !releaseNamed(m, rp.ReleaseEvent) {
		f := finding("A4_NO_RELEASE_EVENT", report.Error, fmt.Sprintf("Resource %q can never be released: %q occurs on no transition and in no entry or exit action", rp.Resource, rp.ReleaseEvent))
		f.Target = rp.Resource
		return []report.Finding{f}
	}
	idx := m.StateIndex()
	init := idx[m.Init]
	held0, re0 := effects(rp, false, m.States[init].OnEntry)
	nodes := []pairNode{{state: init, held: held0, parent: -1, via: -1}}
	id := map[[2]int]int{{init, b2i(held0)}: 0}
	var edges [][2]int
	var out []report.Finding
	emit := func(code, sev, msg string, path []explore.Step) {
		f := finding(code, sev, msg)
		f.Target = rp.Resource
		out = append(out, withPath(f, path))
	}
	if re0 {
		emit("A4_REACQUIRE_WITHOUT_RELEASE", report.Warning, fmt.Sprintf("Resource %q is acquired again in state %q while it is held", rp.Resource, m.Init), []explore.Step{})
	}
	truncated := false
	for q := 0; q < len(nodes) && !truncated; q++ {
		n := nodes[q]
		for ti := range m.Transitions {
			t := &m.Transitions[ti]
			if idx[t.From] != n.state {
				continue
			}
			to := idx[t.To]
			held, re := effects(rp, n.held, m.States[n.state].OnExit, []string{t.Event}, m.States[to].OnEntry)
			if re && !hasCode(out, "A4_REACQUIRE_WITHOUT_RELEASE") {
				emit("A4_REACQUIRE_WITHOUT_RELEASE", report.Warning, fmt.Sprintf("Resource %q is acquired again by %q in state %q while it is held", rp.Resource, t.Event, t.From), append(pairPath(m, nodes, q), stepOf(t)))
			}
			k := [2]int{to, b2i(held)}
			j, seen := id[k]
			if !seen {
				if len(nodes) >= pairGraphCap {
					truncated = true
					break
				}
				j = len(nodes)
				id[k] = j
				nodes = append(nodes, pairNode{state: to, held: held, parent: q, via: ti})
			}
			edges = append(edges, [2]int{q, j})
		}
	}
	for q, n := range nodes {
		if n.held && m.States[n.state].Terminal {
			emit("A4_TERMINAL_WITH_RESOURCE", report.Error, fmt.Sprintf("Terminal state %q is reached while %q is held", m.States[n.state].ID, rp.Resource), pairPath(m, nodes, q))
			break
		}
	}
	if truncated {
		e.stopped("pairGraph")
		f := undecided("A4_UNDECIDED", fmt.Sprintf("the release of %q", rp.Resource), pairGraphCap, len(nodes), "pairGraph", "")
		f.Target = rp.Resource
		return append(out, f)
	}
	if q := noRelease(m, nodes, edges); q >= 0 {
		emit("A4_NO_RELEASE_REACHABLE", report.Error, fmt.Sprintf("Resource %q is held in state %q and no path from there releases it", rp.Resource, m.States[nodes[q].state].ID), pairPath(m, nodes, q))
	}
	return out
}

// noRelease returns the first holding, non-terminal node (BFS order) from
// which no releasing node is reachable, or -1. Terminal holding nodes are
// A4_TERMINAL_WITH_RESOURCE's concern.
func noRelease(m *jsonmodel.Model, nodes []pairNode, edges [][2]int) int {
	rev := make([][]int, len(nodes))
	for _, ed := range edges {
		rev[ed[1]] = append(rev[ed[1]], ed[0])
	}
	ok := make([]bool, len(nodes))
	var queue []int
	for q, n := range nodes {
		if !n.held {
			ok[q] = true
			queue = append(queue, q)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range rev[v] {
			if !ok[u] {
				ok[u] = true
				queue = append(queue, u)
			}
		}
	}
	for q, n := range nodes {
		if !ok[q] && !m.States[n.state].Terminal {
			return q
		}
	}
	return -1
}

func pairPath(m *jsonmodel.Model, nodes []pairNode, q int) []explore.Step {
	var rev []int
	for ; nodes[q].parent >= 0; q = nodes[q].parent {
		rev = append(rev, nodes[q].via)
	}
	path := make([]explore.Step, 0, len(rev))
	for k := len(rev) - 1; k >= 0; k-- {
		path = append(path, stepOf(&m.Transitions[rev[k]]))
	}
	return path
}

func stepOf(t *jsonmodel.Transition) explore.Step {
	return explore.Step{From: t.From, Event: t.Event, To: t.To}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func hasCode(fs []report.Finding, code string) bool {
	return slices.ContainsFunc(fs, func(f report.Finding) bool { return f.Code == code })
}

// a6ResourceInjection: every state that acquires a resource with a
// failEvent must also handle that failEvent (structural; no search).
func (e *env) a6ResourceInjection() report.Check {
	c := report.Check{ID: "A6", Name: "Resource Injection"}
	checked := 0
	for _, rp := range e.m.ResourcePairs {
		if rp.FailEvent == "" {
			continue
		}
		checked++
		acquires, fails := map[string]bool{}, map[string]bool{}
		for _, t := range e.m.Transitions {
			acquires[t.From] = acquires[t.From] || t.Event == rp.AcquireEvent
			fails[t.From] = fails[t.From] || t.Event == rp.FailEvent
		}
		for _, s := range e.m.States {
			if acquires[s.ID] && !fails[s.ID] {
				f := finding("A6_NO_FAILURE_HANDLER", report.Warning, fmt.Sprintf("State %q acquires %q but has no %q handler", s.ID, rp.Resource, rp.FailEvent))
				f.Target = rp.Resource
				f.Evidence = report.O("state", s.ID, "acquireEvent", rp.AcquireEvent, "failEvent", rp.FailEvent)
				c.Findings = append(c.Findings, f)
			}
		}
	}
	switch {
	case checked == 0:
		c.Detail = "No resource pair declares a failEvent"
	case len(c.Findings) == 0:
		c.Detail = fmt.Sprintf("Every acquiring state handles the failure event (%s)", plural(checked, "resource", "resources"))
	default:
		c.Detail = fmt.Sprintf("%s without a failure handler", plural(len(c.Findings), "acquiring state", "acquiring states"))
	}
	return c
}
