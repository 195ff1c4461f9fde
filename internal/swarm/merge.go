package swarm

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

// Input is one member report to merge, by the name it was read from.
type Input struct {
	Name   string
	Report *Report
}

// Merge replays every violation of the inputs on the model, shortens it
// and keeps the shortest per invariant. Any path that does not replay, or
// replays to a runtime that does not violate its invariant, is an error:
// a swarm report is evidence to check, not to trust. cap bounds each
// breadth-first search of the shortening.
func Merge(m *jsonmodel.Model, modelName, modelHash string, inputs []Input, cap int) (*Report, error) {
	mc := runtime.Compile(m)
	tests := map[string]check{}
	for _, c := range checks(m, mc) {
		tests[c.inv.ID] = c
	}
	out := &Report{Schema: MergeSchema, Model: modelName, ModelHash: modelHash, Cap: cap}
	best := map[string]int{} // invariant → index in out.Violations
	for _, in := range inputs {
		out.Reports = append(out.Reports, in.Name)
		if in.Report.ModelHash != modelHash {
			return nil, fmt.Errorf("%s: modelHash %s is not the hash of %s (%s)", in.Name, in.Report.ModelHash, modelName, modelHash)
		}
		for vi, v := range in.Report.Violations {
			at := fmt.Sprintf("%s: $.violations[%d]", in.Name, vi)
			c, ok := tests[v.Invariant]
			if !ok {
				return nil, fmt.Errorf("%s: invariant %q is not a never-states or var-in-range invariant of %s", at, v.Invariant, modelName)
			}
			runs, what, err := replay(mc, c, v.Path)
			if err != nil {
				return nil, fmt.Errorf("%s: the path does not replay: %v", at, err)
			}
			path, proved := shorten(mc, c, runs, v.Path, cap)
			if p := shortenedWhat(mc, c, path); p != "" {
				what = p
			}
			if k, seen := best[v.Invariant]; seen {
				o := &out.Violations[k]
				o.FoundBy = append(o.FoundBy, in.Name)
				if len(v.Path) < *o.FoundLength {
					*o.FoundLength = len(v.Path)
				}
				if len(path) < len(o.Path) {
					o.Path, o.Message, *o.ProvedShortest = path, message(c, what), proved
				}
				continue
			}
			found := len(v.Path)
			best[v.Invariant] = len(out.Violations)
			out.Violations = append(out.Violations, Violation{Code: "S7_INVARIANT_VIOLATION", Invariant: v.Invariant,
				Message: message(c, what), Path: path, FoundBy: []string{in.Name}, FoundLength: &found, ProvedShortest: &proved})
		}
	}
	slices.SortStableFunc(out.Violations, func(a, b Violation) int { return tests[a.Invariant].inv.Index - tests[b.Invariant].inv.Index })
	out.Verdict = Undecided
	out.VerdictReason = fmt.Sprintf("no violation in %d swarm report(s); a swarm never decides a pass (run verify for that)", len(inputs))
	if len(out.Violations) > 0 {
		out.Verdict = Fail
		out.VerdictReason = fmt.Sprintf("%d invariant(s) violated, each path replayed on the runtime", len(out.Violations))
	}
	out.ExitCode = ExitCode(out.Verdict)
	return out, nil
}

func message(c check, what string) string {
	return fmt.Sprintf("Invariant %q violated: %s", c.inv.ID, what)
}

// shortenedWhat says how the end of a path violates c's invariant.
func shortenedWhat(mc *runtime.Machine, c check, path []Step) string {
	runs, what, err := replay(mc, c, path)
	if err != nil || len(runs) == 0 {
		return ""
	}
	return what
}

// replay follows path from the initial runtime, checking each step names
// a transition that fires there with the from, event and to it claims,
// and that the last runtime violates c. It returns the runtimes along the
// path (the initial one first).
func replay(mc *runtime.Machine, c check, path []Step) ([][]int64, string, error) {
	r := mc.Initial(make([]int64, mc.Width()))
	runs := [][]int64{r}
	var buf runtime.StepBuffer
	for i, s := range path {
		if s.Transition < 0 || s.Transition >= len(mc.Model.Transitions) {
			return nil, "", fmt.Errorf("step %d: no transition %d", i, s.Transition)
		}
		t := mc.Transition(s.Transition)
		if t.From != s.From || t.Event != s.Event || t.To != s.To {
			return nil, "", fmt.Errorf("step %d: transition %d is %s --%s--> %s, not %s --%s--> %s", i, s.Transition, t.From, t.Event, t.To, s.From, s.Event, s.To)
		}
		e := mc.EventIndex(s.Event)
		var next []int64
		ok := false
		if e >= 0 {
			next, ok = mc.Fires(r, e, s.Transition, &buf)
		}
		if !ok {
			return nil, "", fmt.Errorf("step %d: transition %d (%s --%s--> %s) does not fire in runtime %s", i, s.Transition, s.From, s.Event, s.To, mc.Key(r))
		}
		r = append([]int64(nil), next...)
		runs = append(runs, r)
	}
	what, bad := c.test(r, slices.Equal(r, runs[0]))
	if !bad {
		return nil, "", fmt.Errorf("its last runtime %s does not violate invariant %q", mc.Key(r), c.inv.ID)
	}
	return runs, what, nil
}

// shorten looks for a shorter path to a violation of c: breadth-first
// from the initial runtime (the first violating runtime found is a
// shortest one: proved), and when that search stops at its cap first,
// breadth-first from each runtime along the path to the furthest later
// one it reaches in fewer steps than the path takes, or to a violation
// nearer than the path's end.
func shorten(mc *runtime.Machine, c check, runs [][]int64, path []Step, cap int) ([]Step, bool) {
	if p, found, complete := bfs(mc, runs[0], cap, c, nil); found {
		return p, true
	} else if complete {
		return path, false // cannot happen for a replayed path; keep it
	}
	per := max(64, cap/max(1, len(path)))
	last := map[string]int{} // a runtime's last position on the path
	for j, r := range runs {
		last[mc.Key(r)] = j
	}
	var out []Step
	for pos := 0; pos < len(path); {
		var jump int
		p, found, _ := bfs(mc, runs[pos], per, c, func(r []int64, key string, depth int) bool {
			if _, bad := c.test(r, slices.Equal(r, runs[0])); bad {
				return true
			}
			if j := last[key]; j-pos > depth && j > jump {
				jump = j
			}
			return false
		})
		switch {
		case found && len(p) < len(path)-pos:
			return append(out, p...), false
		case jump > 0:
			seg, _, _ := bfs(mc, runs[pos], per, c, func(_ []int64, key string, _ int) bool { return key == mc.Key(runs[jump]) })
			out, pos = append(out, seg...), jump
		default:
			out, pos = append(out, path[pos]), pos+1
		}
	}
	return out, false
}

// bfs searches breadth-first from root for a runtime violating c (root
// itself counts when it is the model's initial runtime), or, when stop is
// set, for the first runtime stop accepts (given its words, mc.Key and
// depth); it
// returns the path to it, whether it found one, and whether the search
// ran out of runtimes before its cap.
func bfs(mc *runtime.Machine, root []int64, cap int, c check, stop func(r []int64, key string, depth int) bool) ([]Step, bool, bool) {
	g := explore.NewStore(mc, 0, cap)
	initial := mc.Initial(make([]int64, mc.Width()))
	g.Intern(root, -1, -1)
	depth := []int{0}
	hit := func(i int, r []int64) bool {
		if stop != nil {
			return stop(r, mc.Key(r), depth[i])
		}
		_, bad := c.test(r, slices.Equal(r, initial))
		return bad
	}
	if hit(0, root) {
		return nil, true, true
	}
	var buf runtime.StepBuffer
	for i := 0; i < g.Len(); i++ {
		r := g.Runtime(i, nil)
		for e := range mc.Events {
			for _, o := range mc.Fire(r, e, &buf) {
				j, fresh := g.Intern(o.Next, i, o.Transition)
				if !fresh {
					continue
				}
				depth = append(depth, depth[i]+1)
				if hit(j, o.Next) {
					return pathTo(g, j), true, false
				}
				if g.Len() > cap {
					return nil, false, false
				}
			}
		}
	}
	return nil, false, true
}
