package verify

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/report"
)

// s1Reachability: every declared state appears in some reachable runtime.
func (e *env) s1Reachability() report.Check {
	c := report.Check{ID: "S1", Name: "Reachability"}
	x := e.reached()
	var unseen []string
	for i, s := range e.mc.States {
		if !x.seen[i] {
			unseen = append(unseen, s)
		}
	}
	if x.truncated {
		if len(unseen) == 0 {
			c.Detail = fmt.Sprintf("All %d declared states reached before the cap (%d runtime states explored)", len(e.mc.States), x.n)
			return c
		}
		f := undecided("S1_UNDECIDED", fmt.Sprintf("reachability of %s", plural(len(unseen), "state", "states")), x.cap, x.n, x.capKind, "")
		f.Evidence = append(f.Evidence, report.KV{Key: "states", Value: unseen})
		c.Findings = append(c.Findings, f)
		c.Detail = fmt.Sprintf("Not decided: %d of %d states not seen before the cap (%d runtime states explored)", len(unseen), len(e.mc.States), x.n)
		return c
	}
	for _, s := range unseen {
		f := finding("S1_UNREACHABLE_STATE", report.Warning, fmt.Sprintf("State %q is unreachable from %q", s, e.m.Init))
		f.Target = s
		c.Findings = append(c.Findings, f)
	}
	if len(unseen) == 0 {
		c.Detail = fmt.Sprintf("All %d declared states reachable (%d runtime states explored)", len(e.mc.States), x.n)
	} else {
		c.Detail = fmt.Sprintf("%d of %d declared states unreachable (%d runtime states explored)", len(unseen), len(e.mc.States), x.n)
	}
	return c
}

// s2Deadlock: a non-terminal state with no outgoing transition at all.
func (e *env) s2Deadlock() report.Check {
	c := report.Check{ID: "S2", Name: "Deadlock"}
	for _, s := range DeadEnds(e.m) {
		f := finding("S2_NO_TRANSITIONS", report.Error, fmt.Sprintf("State %q has no outgoing transitions and is not terminal", s))
		f.Target = s
		c.Findings = append(c.Findings, f)
	}
	if len(c.Findings) == 0 {
		c.Detail = "Every non-terminal state has an outgoing transition"
	} else {
		c.Detail = fmt.Sprintf("%s without outgoing transitions", plural(len(c.Findings), "non-terminal state", "non-terminal states"))
	}
	return c
}

// s3Liveness: closed strongly connected components with no terminal member.
func (e *env) s3Liveness() report.Check {
	c := report.Check{ID: "S3", Name: "Liveness"}
	for _, scc := range ClosedSCCs(e.m) {
		f := finding("S3_CLOSED_SCC", report.Error, fmt.Sprintf("States %s form a closed cycle with no exit and no terminal state", quoteIDs(scc.States)))
		f.Target = scc.States
		f.Evidence = report.O("states", scc.States, "transitions", scc.Transitions)
		c.Findings = append(c.Findings, f)
	}
	if len(c.Findings) == 0 {
		c.Detail = "No closed cycle without an exit or a terminal state"
	} else {
		c.Detail = fmt.Sprintf("%s without exit", plural(len(c.Findings), "closed cycle", "closed cycles"))
	}
	return c
}

// s5EventCompleteness: every non-terminal state handles every event of the
// global alphabet.
func (e *env) s5EventCompleteness() report.Check {
	c := report.Check{ID: "S5", Name: "Event Completeness"}
	pairs, total := UnhandledPairs(e.mc, e.opts.MaxFindings)
	for _, s := range pairs {
		f := finding("S5_UNHANDLED_EVENT", report.Warning, fmt.Sprintf("State %q silently ignores event %q", s[0], s[1]))
		f.Target = s[0]
		f.Evidence = report.O("event", s[1])
		c.Findings = append(c.Findings, f)
	}
	c.Unlisted.Warnings = total - len(pairs)
	if total == 0 {
		c.Detail = fmt.Sprintf("Every non-terminal state handles all %d events", len(e.mc.Events))
	} else {
		c.Detail = fmt.Sprintf("%s ignored", plural(total, "(state, event) pair", "(state, event) pairs"))
	}
	return c
}
