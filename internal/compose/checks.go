package compose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
)

// The C1 census reasons.
const (
	reasonNeedsPartner = "rendezvous-needs-partner"
	reasonNotReady     = "rendezvous-partner-not-ready"
	reasonNoTransition = "no-enabled-transition"
	reasonEnabled      = "enabled"
)

// c1Deadlock reports each reachable composite runtime (machine states and
// variables) in which no machine can move while at least one is
// non-terminal, in breadth-first order, so each at its shortest depth. A
// search stopped at its cap with no deadlock found is C1_UNDECIDED: it
// cannot claim that no deadlock is reachable.
func (p *product) c1Deadlock() report.Check {
	c := report.Check{ID: "C1", Name: "Composition Deadlock"}
	for _, n := range p.deadlocks {
		c.Findings = append(c.Findings, p.deadlockFinding(n))
	}
	capNote := ""
	if p.truncated {
		capNote = fmt.Sprintf("; the search stopped at the cap of %d composite states, so absence of deadlock is not proven", p.cap)
	}
	if len(p.deadlocks) == 0 {
		c.Detail = fmt.Sprintf("No reachable composite deadlock (%d composite states explored)%s", p.len(), capNote)
		if p.truncated {
			c.Detail = fmt.Sprintf("Not decided: no composite deadlock in the %d composite states explored%s", p.len(), capNote)
			c.Findings = append(c.Findings, report.Finding{Code: "C1_UNDECIDED", Severity: report.Warning,
				Message:  fmt.Sprintf("Could not decide the absence of composite deadlock: the search stopped at %d composite states; raise maxStates and re-run", p.cap),
				Evidence: report.O("cap", p.cap, "explored", p.len(), "capKind", "maxStates")})
		}
		return c
	}
	c.Detail = fmt.Sprintf("Shortest counterexample (breadth-first): %d step(s); %s in %d composite states explored%s",
		len(c.Findings[0].Path), plural(len(p.deadlocks), "deadlocked composite runtime", "deadlocked composite runtimes"), p.len(), capNote)
	return c
}

func (p *product) deadlockFinding(n int) report.Finding {
	path, steps := p.trace(n)
	t := p.tuple(n)
	term := p.terminals(n)
	states := make([]string, p.k)
	vars := make([]any, p.k) // with states, what tells two deadlocks apart
	per := make([]report.Obj, p.k)
	var reasons []string
	for i, l := range p.locals {
		states[i] = l.mc.States[l.state(t[i])]
		vars[i] = l.mc.VarsValue(l.runtime(t[i]))
		var blocked []report.Obj
		for e, name := range l.mc.Events {
			reason := p.reason(i, e, t, term)
			blocked = append(blocked, report.O("event", name, "reason", reason))
			if !slices.Contains(reasons, reason) {
				reasons = append(reasons, reason)
			}
		}
		if blocked == nil {
			blocked = []report.Obj{}
		}
		per[i] = report.O("index", i, "state", states[i], "terminal", term[i], "blocked", blocked)
	}
	slices.Sort(reasons)
	f := report.Finding{
		Code: "C1_COMPOSITION_DEADLOCK", Severity: report.Error,
		Message:  fmt.Sprintf("Composition deadlocks after %s in %s: no machine can move (%s)", plural(len(path), "step", "steps"), p.runtimeLabel(n), strings.Join(reasons, ", ")),
		Evidence: report.O("steps", steps, "states", states, "depth", len(path), "perMachine", per, "reasons", nonNil(reasons), "vars", vars),
		Path:     path, HasPath: true,
	}
	return f
}

// reason labels event e (an index into machine i's alphabet) in composite
// state t. For a rendezvous the tests run in the decided order
// needs-partner, no-enabled-transition, partner-not-ready; "enabled" uses
// the very predicate the search fires with, so a deadlock never shows it.
// A terminal machine is stopped: its events are not enabled.
func (p *product) reason(i, e int, t []uint32, term []bool) string {
	l := p.locals[i]
	u := p.eventIndex(l.mc.Events[e])
	ev := &p.events[u]
	own := !term[i] && len(l.outcomes(t[i], e)) > 0
	if !ev.rdv {
		if own {
			return reasonEnabled
		}
		return reasonNoTransition
	}
	if len(ev.declaring) < 2 {
		return reasonNeedsPartner
	}
	if !own {
		return reasonNoTransition
	}
	if _, fires := p.participants(u, t, term); fires {
		return reasonEnabled
	}
	return reasonNotReady
}

func (p *product) eventIndex(name string) int {
	i, _ := slices.BinarySearchFunc(p.events, name, func(ev event, n string) int { return jsonvalue.CompareUTF16(ev.name, n) })
	return i
}

// c2Sync reports each listed rendezvous event that never fired in the
// explored product, with why.
func (p *product) c2Sync(rendezvous []string) report.Check {
	c := report.Check{ID: "C2", Name: "Rendezvous Sync"}
	for _, name := range rendezvous {
		u := p.eventIndex(name)
		if p.sync[u].fired {
			continue
		}
		c.Findings = append(c.Findings, p.neverFires(u))
	}
	switch {
	case len(rendezvous) == 0:
		c.Detail = "No rendezvous events listed"
	case len(c.Findings) == 0:
		c.Detail = fmt.Sprintf("All %s fire in the explored product", plural(len(rendezvous), "rendezvous event", "rendezvous events"))
	default:
		c.Detail = fmt.Sprintf("%d of %d rendezvous events never fire in %d composite states explored", len(c.Findings), len(rendezvous), p.len())
	}
	if p.truncated {
		c.Detail += " (search truncated at the cap)"
	}
	return c
}

func (p *product) neverFires(u int) report.Finding {
	ev := &p.events[u]
	st := &p.sync[u]
	reason := fmt.Sprintf("%q is never enabled in all declaring machines at the same time", ev.name)
	if len(ev.declaring) < 2 {
		reason = fmt.Sprintf("fewer than two machines declare %q", ev.name)
	} else {
		for _, i := range ev.declaring {
			if !st.everEnabled[i] {
				reason = fmt.Sprintf("machine %d declares %q but never enables it", i, ev.name)
				break
			}
		}
	}
	machines := make([]report.Obj, p.k)
	for i, l := range p.locals {
		at := make([]string, len(st.enabledAt[i]))
		for j, s := range st.enabledAt[i] {
			at[j] = l.mc.States[s]
		}
		machines[i] = report.O("index", i, "declares", ev.local[i] >= 0, "everEnabled", st.everEnabled[i], "enabledAt", at)
	}
	declaring := ev.declaring
	if declaring == nil {
		declaring = []int{}
	}
	msg := fmt.Sprintf("Rendezvous %q never fires: %s", ev.name, reason)
	if p.truncated {
		msg += fmt.Sprintf("; the search stopped at the cap of %d composite states, so this may be an artefact of the cap", p.cap)
	}
	return report.Finding{
		Code: "C2_RENDEZVOUS_NEVER_FIRES", Severity: report.Error, Message: msg, Target: ev.name,
		Evidence: report.O("event", ev.name, "machines", machines, "declaring", declaring,
			"coEnabledNodes", st.coEnabled, "reason", reason, "truncated", p.truncated),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
