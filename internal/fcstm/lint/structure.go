package lint

import (
	"context"
	"fmt"
	"sort"

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
	dead     map[*model.Transition]string // transitions that never fire, with the reason
}

// analyse computes r with a worklist: a transition is looked at again
// only when something it depends on changes (its owner or its source
// becoming live, its source becoming exitable), so the work is linear in
// the model (a fixpoint that walked every live state per round took
// minutes on a chain of 100,000 states). It stops early, leaving r
// partial, when ctx ends.
func analyse(ctx context.Context, m *model.Model) *reach {
	r := &reach{live: map[*model.State]bool{}, exitable: map[*model.State]bool{}, dead: deadTransitions(m)}
	from := map[*model.State][]*model.Transition{} // the transitions leaving each state
	var index func(s *model.State)
	index = func(s *model.State) {
		for _, t := range s.Transitions {
			if t.From != nil {
				from[t.From] = append(from[t.From], t)
			}
		}
		for _, c := range s.Children {
			index(c)
		}
	}
	index(m.Root)
	var work []*model.Transition
	enter := func(s *model.State) {
		if s != nil && !r.live[s] {
			r.live[s] = true
			work = append(work, s.Transitions...)
			work = append(work, from[s]...)
		}
	}
	enter(m.Root)
	for n := 0; len(work) > 0; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			break
		}
		t := work[len(work)-1]
		work = work[:len(work)-1]
		owner := t.Owner
		switch {
		case r.dead[t] != "" || !r.live[owner]:
		case t.From == nil:
			enter(t.To)
		case !r.live[t.From] || !t.From.IsLeaf() && !r.exitable[t.From]:
		case t.To == nil:
			if !r.exitable[owner] {
				r.exitable[owner] = true
				work = append(work, from[owner]...)
			}
		default:
			enter(t.To)
		}
	}
	return r
}

// reachCheck warns about written states no run can enter.
func reachCheck(ctx context.Context, m *model.Model) report.Check {
	r := analyse(ctx, m)
	c := report.Check{ID: CheckReach, Name: "Structural Reachability", Detail: "Every state can be entered (by structure, guards ignored)"}
	var walk func(s *model.State, depth int)
	walk = func(s *model.State, depth int) {
		if depth > model.MaxDepth {
			c.Findings = append(c.Findings, finding("FCSTM_DEPTH_LIMIT", s.Path, s.Pos, fmt.Sprintf("state %s is nested %d deep, beyond the runtime's stack-depth limit of %d frames: every cycle that enters it raises a limit error, so it can never be active (docs/fcstm.md, \"Errors leave the machine as it was\")", s.Path, depth, model.MaxDepth)))
			return // its descendants are deeper still; one finding is enough
		}
		if !r.live[s] && !s.Combo {
			c.Findings = append(c.Findings, finding("FCSTM_UNREACHABLE_STATE", s.Path, s.Pos, fmt.Sprintf("state %s can never be entered: no initial transition or transition from an enterable state leads to it", s.Path)))
			return // its descendants are unreachable too; one finding is enough
		}
		for _, ch := range s.Children {
			walk(ch, depth+1)
		}
	}
	walk(m.Root, 1)
	if len(c.Findings) > 0 {
		c.Detail = fmt.Sprintf("%d state(s) unreachable by structure or too deep to run", len(c.Findings))
	}
	return c
}

// parentCheck warns about transitions that can never fire: parent-level
// transitions (source a composite) none of whose source's children can
// exit to [*] (docs/fcstm.md, "Transitions"), transitions with a
// constantly false guard, and transitions shadowed by an earlier
// unconditional one.
func parentCheck(ctx context.Context, m *model.Model) report.Check {
	r := analyse(ctx, m)
	c := report.Check{ID: CheckParent, Name: "Never-Firing Transitions", Detail: "No transition is dead by structure (parent-level without a child exit, constant false guard, shadowed)"}
	seen := map[*model.Transition]bool{}
	var walk func(s *model.State)
	walk = func(s *model.State) {
		for _, t := range s.Transitions {
			if t.From == nil || t.From.IsLeaf() || !r.live[t.From] || r.exitable[t.From] || r.dead[t] != "" {
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
			c.Findings = append(c.Findings, finding("FCSTM_DEAD_PARENT_TRANSITION", t.From.Path, written.Pos, fmt.Sprintf("transition %s -> %s never fires: it leaves the composite %s only after a child exits through [*], and no child of %s has a transition to [*]",
				t.From.Name, target, t.From.Path, t.From.Path)))
		}
		for _, ch := range s.Children {
			walk(ch)
		}
	}
	walk(m.Root)
	c.Findings = append(c.Findings, deadFindings(r)...)
	c.Findings = append(c.Findings, pseudoDeadEnds(m)...)
	sortByPosition(c.Findings)
	if len(c.Findings) > 0 {
		c.Detail = fmt.Sprintf("%d transition(s) that never fire", len(c.Findings))
	}
	return c
}

// sortByPosition orders findings by file, line and column.
func sortByPosition(fs []report.Finding) {
	key := func(f report.Finding) (string, int, int) {
		file, _ := f.Evidence.Get("file").(string)
		line, _ := f.Evidence.Get("line").(int)
		col, _ := f.Evidence.Get("col").(int)
		return file, line, col
	}
	sort.SliceStable(fs, func(i, j int) bool {
		fi, li, ci := key(fs[i])
		fj, lj, cj := key(fs[j])
		if fi != fj {
			return fi < fj
		}
		if li != lj {
			return li < lj
		}
		return ci < cj
	})
}
