package explain

import (
	"github.com/stateproof/stateproof/internal/smt"
)

// classified is the outcome: the classification ("" when a probe
// did not decide), the core scope, and the groups the scope admits.
type classified struct {
	classification string
	scope          string
	members        []*smt.Group
}

// classify names the part of the input in conflict. The stage where the
// staged solve lost satisfiability names the family; within it the
// component-alone probe and then the domain-plus-component probe pick the
// member, and the first UNSAT decides, so exactly one value applies. An
// undecided probe (or an unlocalised stage) falls back to the whole stage.
func classify(stage string, ag aggregates, io *solverIO, led *ledger) (classified, error) {
	switch stage {
	case "kernel":
		return classified{"kernel_conflict", "kernel", concat(ag.domain, ag.transition)}, nil
	case "initialization":
		return probeFamily("initialization", ag.initial, concat(ag.domain, ag.transition, ag.initial), ag, io, led)
	case "assumptions":
		return probeFamily("assumptions", ag.environment, concat(ag.domain, ag.transition, ag.initial, ag.environment), ag, io, led)
	}
	// The stage was not localised (unknown/timeout): only the full
	// scenario is known UNSAT.
	return classified{"", "assumptions_stage_fallback", concat(ag.domain, ag.transition, ag.initial, ag.environment)}, nil
}

// probeFamily runs the two probes of one family.
func probeFamily(family string, component, prefix []*smt.Group, ag aggregates, io *solverIO, led *ledger) (classified, error) {
	fallback := classified{"", family + "_stage_fallback", prefix}
	self, err := io.check(lits(component))
	if err != nil {
		return classified{}, err
	}
	led.add("component_"+family, probeStatus(self.Status, self.Ran), self.Reason, self.ElapsedMS)
	switch {
	case !self.Ran || self.Status == "unknown" || self.Status == "timeout":
		return fallback, nil
	case self.Status == "unsat":
		return classified{family + "_self_conflict", family + "_component", component}, nil
	}
	withDomain := concat(ag.domain, component)
	dom, err := io.check(lits(withDomain))
	if err != nil {
		return classified{}, err
	}
	led.add("domain_"+family, probeStatus(dom.Status, dom.Ran), dom.Reason, dom.ElapsedMS)
	switch {
	case !dom.Ran || dom.Status == "unknown" || dom.Status == "timeout":
		return fallback, nil
	case dom.Status == "unsat":
		return classified{family + "_domain_conflict", family + "_domain", withDomain}, nil
	}
	name := map[string]string{"initialization": "initialization_kernel_conflict", "assumptions": "assumptions_prefix_conflict"}[family]
	return classified{name, family + "_prefix", prefix}, nil
}

// probeStatus records a check that was not run for want of budget as a
// timeout: the deadline, not the solver, stopped it.
func probeStatus(status string, ran bool) string {
	if !ran {
		return "timeout"
	}
	return status
}
