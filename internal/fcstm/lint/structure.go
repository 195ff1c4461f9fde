package lint

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/report"
)

// reach computes the states reachable by structure alone (guards and
// events assumed satisfiable), and which composites can be left through
// a child's exit to [*]. A transition whose source is a composite fires
// only after a child of it exits through [*], so it counts only when the
// composite is exitable. Guards are ignored: "unreachable" is proven (no
// run can get there), "reachable" is not.
type reach struct {
	live     map[*model.State]bool
	exitable map[*model.State]bool
}

func analyse(m *model.Model) *reach {
	r := &reach{live: map[*model.State]bool{m.Root: true}, exitable: map[*model.State]bool{}}
	for changed := true; changed; {
		changed = false
		mark := func(s *model.State) {
			if s != nil && !r.live[s] {
				r.live[s] = true
				changed = true
			}
		}
		for s := range r.live {
			for _, t := range s.Transitions {
				switch {
				case t.From == nil:
					mark(t.To)
				case !r.live[t.From] || !t.From.IsLeaf() && !r.exitable[t.From]:
				case t.To == nil:
					if !r.exitable[s] {
						r.exitable[s] = true
						changed = true
					}
				default:
					mark(t.To)
				}
			}
		}
	}
	return r
}

// reachCheck warns about written states no run can enter.
func reachCheck(m *model.Model) report.Check {
	r := analyse(m)
	c := report.Check{ID: CheckReach, Name: "Structural Reachability", Detail: "Every state can be entered (by structure, guards ignored)"}
	var walk func(s *model.State)
	walk = func(s *model.State) {
		if !r.live[s] && !s.Combo {
			c.Findings = append(c.Findings, report.Finding{
				Code: "FCSTM_UNREACHABLE_STATE", Severity: report.Warning, Target: s.Path, Evidence: at(s.Pos),
				Message: fmt.Sprintf("state %s can never be entered: no initial transition or transition from an enterable state leads to it", s.Path),
			})
			return // its descendants are unreachable too; one finding is enough
		}
		for _, ch := range s.Children {
			walk(ch)
		}
	}
	walk(m.Root)
	if len(c.Findings) > 0 {
		c.Detail = fmt.Sprintf("%d state(s) unreachable by structure", len(c.Findings))
	}
	return c
}

// parentCheck warns about parent-level transitions (source a composite)
// that can never fire because no child of the source can exit to [*]
// (docs/fcstm.md, "Parent-level transitions").
func parentCheck(m *model.Model) report.Check {
	r := analyse(m)
	c := report.Check{ID: CheckParent, Name: "Parent-Level Transitions", Detail: "Every transition from a composite has a child exit path"}
	seen := map[*model.Transition]bool{}
	var walk func(s *model.State)
	walk = func(s *model.State) {
		for _, t := range s.Transitions {
			if t.From == nil || t.From.IsLeaf() || !r.live[t.From] || r.exitable[t.From] {
				continue
			}
			written := t
			if t.Origin != nil && !t.Forced {
				written = t.Origin // a combo's first hop stands for the written transition
			}
			if seen[written] {
				continue
			}
			seen[written] = true
			target := "[*]"
			if written.To != nil {
				target = written.To.Name
			}
			c.Findings = append(c.Findings, report.Finding{
				Code: "FCSTM_DEAD_PARENT_TRANSITION", Severity: report.Warning, Target: t.From.Path, Evidence: at(written.Pos),
				Message: fmt.Sprintf("transition %s -> %s never fires: it leaves the composite %s only after a child exits through [*], and no child of %s has a transition to [*]",
					t.From.Name, target, t.From.Path, t.From.Path),
			})
		}
		for _, ch := range s.Children {
			walk(ch)
		}
	}
	walk(m.Root)
	if len(c.Findings) > 0 {
		c.Detail = fmt.Sprintf("%d parent-level transition(s) that never fire", len(c.Findings))
	}
	return c
}
