package swarm

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

// Input is one member report to merge, by the name it was read from.
type Input struct {
	Name   string
	Report *Report
}

// Options bound the shortening of a merge. Replaying the paths is not
// bounded: it takes one step per step of the reports, and a path that is
// not replayed is never believed.
type Options struct {
	// Cap bounds each breadth-first search of the shortening.
	Cap int
	// Deadline ends the shortening: a violation whose shortening has not
	// finished by then keeps the rest of its path as found, and says so
	// (Violation.ShortenStopped). The zero time sets no deadline.
	Deadline time.Time
}

// Merge replays every violation of the inputs on the model, shortens the
// shortest path found per invariant and keeps it. Any path that does not
// replay, or replays to a runtime that does not violate its invariant, is
// an error: a swarm report is evidence to check, not to trust. Copies of
// one path (one invariant, the same steps) are replayed and shortened
// once, whichever reports repeat it.
func Merge(m *jsonmodel.Model, modelName, modelHash string, inputs []Input, opt Options) (*Report, error) {
	return newMerger(m, opt).merge(modelName, modelHash, inputs)
}

func newMerger(m *jsonmodel.Model, opt Options) *merger {
	g := &merger{mc: runtime.Compile(m), tests: map[string]check{}, opt: opt}
	for _, c := range checks(m, g.mc) {
		g.tests[c.inv.ID] = c
	}
	return g
}

func (g *merger) merge(modelName, modelHash string, inputs []Input) (*Report, error) {
	opt := g.opt
	out := &Report{Schema: MergeSchema, Model: modelName, ModelHash: modelHash, Cap: opt.Cap}
	found, err := g.collect(modelName, modelHash, inputs)
	if err != nil {
		return nil, err
	}
	stopped := 0
	for _, f := range found {
		v := g.shortenFound(f)
		if v.ShortenStopped != "" {
			stopped++
		}
		out.Violations = append(out.Violations, v)
	}
	for _, in := range inputs {
		out.Reports = append(out.Reports, in.Name)
	}
	slices.SortStableFunc(out.Violations, func(a, b Violation) int { return g.tests[a.Invariant].inv.Index - g.tests[b.Invariant].inv.Index })
	out.Verdict = Undecided
	out.VerdictReason = fmt.Sprintf("no violation in %d swarm report(s); a swarm never decides a pass (run verify for that)", len(inputs))
	if len(out.Violations) > 0 {
		out.Verdict = Fail
		out.VerdictReason = fmt.Sprintf("%d invariant(s) violated, each path replayed on the runtime", len(out.Violations))
		if stopped > 0 {
			out.VerdictReason += fmt.Sprintf("; the shortening stopped at its time budget for %d of them (shortenStopped), whose paths are partly as found", stopped)
		}
	}
	out.ExitCode = ExitCode(out.Verdict)
	return out, nil
}

// merger holds what a merge shares between its violations, and counts the
// shortenings it runs (each is up to a cap of breadth-first searches).
type merger struct {
	mc          *runtime.Machine
	tests       map[string]check
	opt         Options
	shortenings int
}

// found is an invariant's violations across the inputs: the reports that
// found it, and the shortest path among them, replayed.
type found struct {
	c       check
	foundBy []string
	path    []Step
	runs    [][]int64
	what    string
}

// collect replays each distinct violation of the inputs once and keeps
// the shortest path per invariant, in the order the invariants were first
// found.
func (g *merger) collect(modelName, modelHash string, inputs []Input) ([]*found, error) {
	var order []*found
	byInv := map[string]*found{}
	seen := map[string]bool{} // pathKey of every path replayed
	for _, in := range inputs {
		if in.Report.ModelHash != modelHash {
			return nil, fmt.Errorf("%s: modelHash %s is not the hash of %s (%s)", in.Name, in.Report.ModelHash, modelName, modelHash)
		}
		for vi, v := range in.Report.Violations {
			at := fmt.Sprintf("%s: $.violations[%d]", in.Name, vi)
			c, ok := g.tests[v.Invariant]
			if !ok {
				return nil, fmt.Errorf("%s: invariant %q is not a never-states or var-in-range invariant of %s", at, v.Invariant, modelName)
			}
			f := byInv[v.Invariant]
			if f == nil {
				f = &found{c: c}
				byInv[v.Invariant] = f
				order = append(order, f)
			}
			if !slices.Contains(f.foundBy, in.Name) {
				f.foundBy = append(f.foundBy, in.Name)
			}
			key := pathKey(v.Invariant, v.Path)
			if seen[key] {
				continue
			}
			seen[key] = true
			runs, what, err := replay(g.mc, c, v.Path)
			if err != nil {
				return nil, fmt.Errorf("%s: the path does not replay: %v", at, err)
			}
			if f.runs == nil || len(v.Path) < len(f.path) {
				f.path, f.runs, f.what = v.Path, runs, what
			}
		}
	}
	return order, nil
}

// pathKey identifies a violation: its invariant and every field of every
// step.
func pathKey(inv string, path []Step) string {
	b := strconv.AppendQuote(nil, inv)
	for _, s := range path {
		b = strconv.AppendInt(append(b, ' '), int64(s.Transition), 10)
		b = strconv.AppendQuote(b, s.From)
		b = strconv.AppendQuote(b, s.Event)
		b = strconv.AppendQuote(b, s.To)
	}
	return string(b)
}

// shortenFound shortens f's shortest path found and renders the violation.
func (g *merger) shortenFound(f *found) Violation {
	g.shortenings++
	path, proved, stoppedAt := shorten(g.mc, f.c, f.runs, f.path, g.opt)
	what := f.what
	if p := shortenedWhat(g.mc, f.c, path); p != "" {
		what = p
	}
	n := len(f.path)
	v := Violation{Code: "S7_INVARIANT_VIOLATION", Invariant: f.c.inv.ID, Message: message(f.c, what), Path: path,
		FoundBy: f.foundBy, FoundLength: &n, ProvedShortest: &proved}
	if stoppedAt >= 0 {
		v.ShortenStopped = fmt.Sprintf("the time budget ran out at step %d of the %d-step path found: the path from there on is as found", stoppedAt, n)
	}
	return v
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
// nearer than the path's end. At opt.Deadline it stops and keeps the rest
// of the path as found, returning the position on path it stopped at (-1
// when it finished).
func shorten(mc *runtime.Machine, c check, runs [][]int64, path []Step, opt Options) ([]Step, bool, int) {
	late := func() bool { return !opt.Deadline.IsZero() && !time.Now().Before(opt.Deadline) }
	if late() {
		return path, false, 0
	}
	p, found, complete := bfs(mc, runs[0], opt.Cap, c, nil, late)
	switch {
	case found:
		return p, true, -1
	case complete:
		return path, false, -1 // cannot happen for a replayed path; keep it
	case late():
		return path, false, 0
	}
	per := max(64, opt.Cap/max(1, len(path)))
	last := map[string]int{} // a runtime's last position on the path
	for j, r := range runs {
		last[mc.Key(r)] = j
	}
	var out []Step
	for pos := 0; pos < len(path); {
		if late() {
			return append(out, path[pos:]...), false, pos
		}
		var jump int
		p, found, _ := bfs(mc, runs[pos], per, c, func(r []int64, key string, depth int) bool {
			if _, bad := c.test(r, slices.Equal(r, runs[0])); bad {
				return true
			}
			if j := last[key]; j-pos > depth && j > jump {
				jump = j
			}
			return false
		}, late)
		switch {
		case found && len(p) < len(path)-pos:
			return append(out, p...), false, -1
		case jump > 0:
			seg, ok, _ := bfs(mc, runs[pos], per, c, func(_ []int64, key string, _ int) bool { return key == mc.Key(runs[jump]) }, late)
			if !ok { // out of time between the two searches
				return append(out, path[pos:]...), false, pos
			}
			out, pos = append(out, seg...), jump
		default:
			out, pos = append(out, path[pos]), pos+1
		}
	}
	return out, false, -1
}

// bfs searches breadth-first from root for a runtime violating c (root
// itself counts when it is the model's initial runtime), or, when stop is
// set, for the first runtime stop accepts (given its words, mc.Key and
// depth); it returns the path to it, whether it found one, and whether
// the search ran out of runtimes before its cap. It gives up, finding
// nothing, when late says so (asked every 1024 runtimes).
func bfs(mc *runtime.Machine, root []int64, cap int, c check, stop func(r []int64, key string, depth int) bool, late func() bool) ([]Step, bool, bool) {
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
		if i%1024 == 1023 && late() {
			return nil, false, false
		}
		r := g.Runtime(i, nil)
		for e := range mc.Events {
			for _, o := range mc.Fire(r, e, &buf) {
				j, fresh := g.Intern(o.Next, i, o.Label)
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
