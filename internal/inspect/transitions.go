package inspect

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// Reasons a transition can never fire, with pyfcstm's tokens.
const (
	reasonSource    = "unreachable_source_state"
	reasonGuard     = "guard_false"
	reasonRedundant = "redundant"
	reasonShadowed  = "shadowed"
	reasonNoExpand  = "forced_never_expands"
	reasonConsumer  = "unreachable_event_consumer"
)

// unreachableTransitions reports W_UNREACHABLE_TRANSITION: each written
// transition (not a combo's) that can never fire, once, with every reason
// found: its source state is never entered (by structure, or with
// Options.Search by the exhaustive search), its guard is constant false,
// it repeats an earlier transition, or an earlier one is always taken
// instead (shadowedBy); a transition whose event no transition from a
// state a run enters consumes has unreachable_event_consumer too. It reads what structure and
// redundancy found, so that the reasons agree with their diagnostics.
func (a *analysis) unreachableTransitions() {
	a.shadowed, a.shadowCandidates = shadowedBy(a.m)
	var count map[*model.Event]int
	a.deadConsumer, count = a.deadConsumers()
	a.unreachableEmits(count)
	states(a.m.Root, func(s *model.State) {
		for _, t := range s.Transitions {
			if t.Origin != nil {
				continue // a combo's hop or an injected forced copy: the written transition speaks for it
			}
			a.unreachableTransition(t)
		}
	})
}

func (a *analysis) unreachableTransition(t *model.Transition) {
	var reasons []string
	bySearch := false
	src := sourceState(t)
	switch {
	case !a.live[src]:
		reasons = append(reasons, reasonSource)
		if a.deadConsumer[t] {
			reasons = append(reasons, reasonConsumer)
		}
	case a.neverRests(src):
		reasons, bySearch = append(reasons, reasonSource), true
	}
	if v, ok := lint.ConstantGuard(t.Guard); ok && !v {
		reasons = append(reasons, reasonGuard)
	}
	if a.redundant[t] {
		reasons = append(reasons, reasonRedundant)
	}
	if a.shadowed[t] != nil {
		reasons = append(reasons, reasonShadowed)
	}
	if len(reasons) == 0 {
		return
	}
	sort.Strings(reasons)
	refs := map[string]any{"from_path": endpointPath(t.From), "to_path": endpointPath(t.To), "reasons": reasons, "source_state_path": nil}
	if t.From != nil {
		refs["source_state_path"] = t.From.Path
	}
	if bySearch {
		refs["verify_backed"] = true
		refs["verification_source_ids"] = []string{searchAlgorithm + "@exhaustive"}
	}
	if a.unreachable == nil {
		a.unreachable = map[*model.Transition]int{}
	}
	a.unreachable[t] = len(a.out.Diagnostics)
	a.emit("W_UNREACHABLE_TRANSITION", t.Pos.File, a.stmtSpan(t.Pos), refs,
		"transition %s -> %s can never fire (%s)", endpointPath(t.From), endpointPath(t.To), strings.Join(reasons, ", "))
	if bySearch && len(reasons) == 1 {
		a.out.Diagnostics[len(a.out.Diagnostics)-1].Basis = BasisSearch
	}
}

// neverRests reports whether the exhaustive search decided that no run
// enters s, a leaf the structure lets a run enter (see unreachedBySearch).
func (a *analysis) neverRests(s *model.State) bool {
	r := a.searched
	return r != nil && r.incomplete == "" && !r.reached[s.Path] && s.Stoppable()
}

// shadowedBySMT adds the reason shadowed, decided by the solver, to t's
// W_UNREACHABLE_TRANSITION, or reports one with basis smt when t had
// none.
func (a *analysis) shadowedBySMT(t *model.Transition) {
	const source = "smt_local@smt_local"
	i, ok := a.unreachable[t]
	if !ok {
		refs := map[string]any{"from_path": endpointPath(t.From), "to_path": endpointPath(t.To), "reasons": []string{reasonShadowed},
			"source_state_path": t.From.Path, "verify_backed": true, "verification_source_ids": []string{source}}
		a.emit("W_UNREACHABLE_TRANSITION", t.Pos.File, a.stmtSpan(t.Pos), refs,
			"transition %s -> %s can never fire (%s)", endpointPath(t.From), endpointPath(t.To), reasonShadowed)
		a.out.Diagnostics[len(a.out.Diagnostics)-1].Basis = BasisSMT
		return
	}
	d := &a.out.Diagnostics[i]
	reasons := append(d.Refs["reasons"].([]string), reasonShadowed)
	sort.Strings(reasons)
	ids, _ := d.Refs["verification_source_ids"].([]string)
	ids = append(ids, source)
	sort.Strings(ids)
	d.Refs["reasons"], d.Refs["verify_backed"], d.Refs["verification_source_ids"] = reasons, true, ids
	d.Message = fmt.Sprintf("transition %s -> %s can never fire (%s)", endpointPath(t.From), endpointPath(t.To), strings.Join(reasons, ", "))
}
