package explain

import (
	"fmt"
	"sort"

	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/z3"
)

// coreResult is an extracted core: its members in stable-id order and the
// claim its minimisation supports.
type coreResult struct {
	scope     string
	members   []*smt.Group
	reduction string // raw, partial_minimized, subset_minimal
}

// undecided says why no core could be extracted.
type undecided struct{ status, reason string }

// extractCore checks the scope's groups, maps the solver's unsat core back
// to groups (sound: equation 6), and minimises it by deletion (equation 7).
func extractCore(cl classified, io *solverIO, led *ledger) (*coreResult, undecided, error) {
	res, err := io.check(lits(cl.members))
	if err != nil {
		return nil, undecided{}, err
	}
	st := probeStatus(res.Status, res.Ran)
	switch st {
	case "unsat":
	case "sat":
		// The stage was localised UNSAT, so a SAT scope is an internal
		// inconsistency; report it rather than publish a wrong core.
		return nil, undecided{}, fmt.Errorf("explain: scope %s is satisfiable although its stage was not", cl.scope)
	default:
		reason := res.Reason
		if !res.Ran {
			reason = "deadline exhausted before core extraction"
		}
		led.add("unsat_core", st, reason, res.ElapsedMS)
		return nil, undecided{st, "core extraction " + st + ": " + reason}, nil
	}
	raw, err := io.core()
	if err != nil {
		return nil, undecided{}, fmt.Errorf("explain: reading the unsat core: %w", err)
	}
	members := groupsOf(raw, cl.members)
	led.add("unsat_core", "complete", "", res.ElapsedMS)
	if len(members) == 0 {
		return nil, undecided{}, fmt.Errorf("explain: the solver returned an empty core for scope %s", cl.scope)
	}
	c := &coreResult{scope: cl.scope, members: members, reduction: "raw"}
	if err := minimise(c, io, led); err != nil {
		return nil, undecided{}, err
	}
	return c, undecided{}, nil
}

// groupsOf maps core literals back to the groups of the scope, in
// stable-id order.
func groupsOf(core []*z3.Term, scope []*smt.Group) []*smt.Group {
	in := map[uint32]bool{}
	for _, t := range core {
		in[t.ID()] = true
	}
	var out []*smt.Group
	for _, g := range scope {
		if in[g.Lit.ID()] {
			out = append(out, g)
		}
	}
	sortGroups(out)
	return out
}

func sortGroups(gs []*smt.Group) {
	sort.SliceStable(gs, func(i, j int) bool { return gs[i].ID < gs[j].ID })
}

// minimise tests every member in stable-id order: dropped when the rest is
// still UNSAT, kept when the rest is SAT. An undecided check (unknown, or
// the budget ran out) stops the phase and the core stays
// partial_minimized; only a core whose every member was tested is
// subset_minimal.
func minimise(c *coreResult, io *solverIO, led *ledger) error {
	if len(c.members) == 1 {
		// One member: its removal leaves the empty set, which is SAT.
		c.reduction = "subset_minimal"
		led.add("unsat_core_minimization", "complete", "", 0)
		return nil
	}
	cur := append([]*smt.Group(nil), c.members...)
	elapsed := 0.0
	for k := 0; k < len(cur); {
		rest := append(append([]*smt.Group(nil), cur[:k]...), cur[k+1:]...)
		res, err := io.check(lits(rest))
		if err != nil {
			return err
		}
		elapsed += res.ElapsedMS
		switch st := probeStatus(res.Status, res.Ran); st {
		case "unsat":
			cur = rest
		case "sat":
			k++
		default:
			reason := res.Reason
			if !res.Ran {
				reason = "deadline exhausted during core minimization"
			}
			c.members, c.reduction = cur, "partial_minimized"
			led.add("unsat_core_minimization", st, reason, elapsed)
			return nil
		}
	}
	c.members, c.reduction = cur, "subset_minimal"
	led.add("unsat_core_minimization", "complete", "", elapsed)
	return nil
}
