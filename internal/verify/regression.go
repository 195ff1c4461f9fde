package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
)

// d1Preservation: every BEFORE (state, event) that could fire must still
// have a transition from the mapped AFTER state (guards ignored).
func (c *comparison) d1Preservation() report.Check {
	ch := report.Check{ID: "D1", Name: "Behavioral Preservation"}
	if mi := c.mapState(c.before.Init); mi != c.after.Init {
		f := finding("D1_INIT_MISMATCH", report.Warning, fmt.Sprintf("BEFORE starts in %q (mapped to %q), but AFTER starts in %q", c.before.Init, mi, c.after.Init))
		f.Target = c.before.Init
		f.Evidence = report.O("beforeInit", c.before.Init, "mappedInit", mi, "afterInit", c.after.Init)
		ch.Findings = append(ch.Findings, f)
	}
	missing := map[string]bool{}
	for _, s := range c.before.States {
		m := c.mapState(s.ID)
		if c.inAfter(m) {
			continue
		}
		missing[s.ID] = true
		msg := fmt.Sprintf("BEFORE state %q maps to %q, which AFTER does not declare", s.ID, m)
		if m == s.ID {
			msg = fmt.Sprintf("BEFORE state %q does not exist in AFTER and stateMapping does not map it", s.ID)
		}
		f := finding("D1_MAPPED_STATE_MISSING", report.Error, msg)
		f.Target = s.ID
		f.Evidence = report.O("beforeState", s.ID, "afterState", m)
		ch.Findings = append(ch.Findings, f)
	}
	afterGroups := map[[2]string]bool{}
	for _, t := range c.after.Transitions {
		afterGroups[[2]string{t.From, t.Event}] = true
	}
	seen := map[[2]string]bool{}
	pairs, lost := 0, 0
	for _, t := range c.before.Transitions {
		if seen[[2]string{t.From, t.Event}] || missing[t.From] {
			continue
		}
		seen[[2]string{t.From, t.Event}] = true
		pairs++
		m := c.mapState(t.From)
		if afterGroups[[2]string{m, t.Event}] {
			continue
		}
		lost++
		f := finding("D1_EVENT_DISABLED", report.Error, fmt.Sprintf("BEFORE state %q could fire %q, but AFTER has no transition from %q on %q", t.From, t.Event, m, t.Event))
		f.Target = t.From
		f.Evidence = report.O("beforeState", t.From, "afterState", m, "event", t.Event)
		f.HasPath = true
		f.Path = []report.Step{{From: t.From, Event: t.Event, To: t.To}}
		ch.Findings = append(ch.Findings, f)
	}
	if len(ch.Findings) == 0 {
		ch.Detail = fmt.Sprintf("All %s still have a transition from the mapped AFTER state", plural(pairs, "BEFORE (state, event) pair", "BEFORE (state, event) pairs"))
		return ch
	}
	ch.Detail = fmt.Sprintf("%d of %d BEFORE (state, event) pairs lost in AFTER, %d BEFORE states missing", lost, pairs, len(missing))
	if len(missing) > 0 {
		ch.Detail += " (pairs leaving a missing state are not counted)"
	}
	return ch
}

// d3Delta lists what the change removed as warnings; additions are in
// the detail and the comparison object only.
func (c *comparison) d3Delta() report.Check {
	ch := report.Check{ID: "D3", Name: "Regression Delta"}
	for _, s := range c.before.States {
		m := c.mapState(s.ID)
		if c.inAfter(m) {
			continue
		}
		msg := fmt.Sprintf("State %q was removed", s.ID)
		if m != s.ID {
			msg = fmt.Sprintf("State %q (mapped to %q) was removed", s.ID, m)
		}
		f := finding("D3_REMOVED_STATE", report.Warning, msg)
		f.Evidence = report.O("beforeState", s.ID, "afterState", m)
		ch.Findings = append(ch.Findings, f)
	}
	for _, ev := range c.removedEvents {
		f := finding("D3_REMOVED_EVENT", report.Warning, fmt.Sprintf("Event %q was removed: no AFTER transition fires on it", ev))
		f.Evidence = report.O("event", ev)
		ch.Findings = append(ch.Findings, f)
	}
	for _, t := range c.removedTrans {
		f := finding("D3_REMOVED_TRANSITION", report.Warning, fmt.Sprintf("Transition %q --%s--> %q was removed", t.from, t.event, t.to))
		f.Evidence = report.O("transition", report.O("from", t.from, "event", t.event, "to", t.to))
		ch.Findings = append(ch.Findings, f)
	}
	ch.Detail = fmt.Sprintf("Delta: +%d states, -%d states, +%d events, -%d events, +%d transitions, -%d transitions",
		len(c.addedStates), len(c.removedStates), len(c.addedEvents), len(c.removedEvents), len(c.addedTrans), len(c.removedTrans))
	return ch
}

// d4Regression: dead ends (S2's rule) and closed SCCs (S3's rule) of AFTER
// that are not the image of one in BEFORE.
func (c *comparison) d4Regression() report.Check {
	ch := report.Check{ID: "D4", Name: "Deadlock/Liveness Regression"}
	oldDead := map[string]bool{}
	for _, s := range DeadEnds(c.before) {
		oldDead[c.mapState(s)] = true
	}
	dead := 0
	for _, s := range DeadEnds(c.after) {
		if oldDead[s] {
			continue
		}
		dead++
		f := finding("D4_DEADLOCK_REGRESSION", report.Error, fmt.Sprintf("State %q is a new dead end in AFTER: it is not terminal and has no outgoing transitions", s))
		f.Evidence = report.O("state", s)
		ch.Findings = append(ch.Findings, f)
	}
	oldSCCs := map[string]bool{}
	for _, scc := range ClosedSCCs(c.before) {
		oldSCCs[c.setKey(scc.States)] = true
	}
	cycles := 0
	for _, scc := range ClosedSCCs(c.after) {
		if oldSCCs[strings.Join(scc.States, "\x00")] {
			continue
		}
		cycles++
		f := finding("D4_LIVENESS_REGRESSION", report.Error, fmt.Sprintf("States %s form a new closed cycle in AFTER with no exit and no terminal state", quoteIDs(scc.States)))
		f.Evidence = report.O("states", scc.States, "transitions", scc.Transitions)
		ch.Findings = append(ch.Findings, f)
	}
	if dead+cycles == 0 {
		ch.Detail = "No new dead ends or closed cycles in AFTER"
	} else {
		ch.Detail = fmt.Sprintf("%s, %s in AFTER", plural(dead, "new dead end", "new dead ends"), plural(cycles, "new closed cycle", "new closed cycles"))
	}
	return ch
}

// setKey is the sorted, deduplicated image of a BEFORE state set.
func (c *comparison) setKey(states []string) string {
	m := make([]string, len(states))
	for i, s := range states {
		m[i] = c.mapState(s)
	}
	jsonvalue.SortUTF16(m)
	return strings.Join(slices.Compact(m), "\x00")
}
