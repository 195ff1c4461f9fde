package swarm

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
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

// Merge replays every violation of the inputs on the target, shortens the
// shortest path found per finding and keeps it. Any path that does not
// replay, or replays to a state without its finding, is an error: a swarm
// report is evidence to check, not to trust. Copies of one path (one
// finding, the same steps) are replayed and shortened once, whichever
// reports repeat it.
func Merge(t Target, modelName, modelHash string, inputs []Input, opt Options) (*Report, error) {
	return newMerger(t, opt).merge(modelName, modelHash, inputs)
}

func newMerger(t Target, opt Options) *merger {
	return &merger{t: t, opt: opt}
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
	rank := func(v Violation) int { r, _ := g.t.Rank(v.Invariant); return r }
	slices.SortStableFunc(out.Violations, func(a, b Violation) int { return rank(a) - rank(b) })
	out.Verdict = Undecided
	out.VerdictReason = fmt.Sprintf("no violation in %d swarm report(s); a swarm never decides a pass (run verify for that)", len(inputs))
	if len(out.Violations) > 0 {
		out.Verdict = Fail
		out.VerdictReason = g.t.Found(len(out.Violations)) + ", each path replayed on the runtime"
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
	t           Target
	opt         Options
	shortenings int
}

// found is a finding's violations across the inputs: the reports that
// found it, and the shortest path among them, replayed.
type found struct {
	key     string
	foundBy []string
	path    []Step
	runs    [][]int64
	what    Finding
}

// collect replays each distinct violation of the inputs once and keeps
// the shortest path per finding, in the order the findings were first
// found.
func (g *merger) collect(modelName, modelHash string, inputs []Input) ([]*found, error) {
	var order []*found
	byKey := map[string]*found{}
	seen := map[string]bool{} // pathKey of every path replayed
	for _, in := range inputs {
		if in.Report.ModelHash != modelHash {
			return nil, fmt.Errorf("%s: modelHash %s is not the hash of %s (%s)", in.Name, in.Report.ModelHash, modelName, modelHash)
		}
		for vi, v := range in.Report.Violations {
			at := fmt.Sprintf("%s: $.violations[%d]", in.Name, vi)
			if _, ok := g.t.Rank(v.Invariant); !ok {
				return nil, fmt.Errorf("%s: %q is not a finding a swarm looks for in %s", at, v.Invariant, modelName)
			}
			f := byKey[v.Invariant]
			if f == nil {
				f = &found{key: v.Invariant}
				byKey[v.Invariant] = f
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
			runs, what, err := replay(g.t, v.Invariant, v.Path)
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

// pathKey identifies a violation: its finding and every field of every
// step.
func pathKey(key string, path []Step) string {
	b := strconv.AppendQuote(nil, key)
	for _, s := range path {
		b = append(b, ' ')
		if s.Transition != nil {
			b = strconv.AppendInt(b, int64(*s.Transition), 10)
		}
		b = strconv.AppendQuote(b, s.From)
		b = strconv.AppendQuote(b, s.Event)
		b = strconv.AppendQuote(b, s.To)
	}
	return string(b)
}

// shortenFound shortens f's shortest path found and renders the violation.
func (g *merger) shortenFound(f *found) Violation {
	g.shortenings++
	path, proved, stoppedAt := shorten(g.t, f.key, f.runs, f.path, g.opt)
	what := f.what
	if _, p, err := replay(g.t, f.key, path); err == nil {
		what = p
	}
	n := len(f.path)
	v := Violation{Code: what.Code, Invariant: f.key, Message: what.Message, Path: path,
		FoundBy: f.foundBy, FoundLength: &n, ProvedShortest: &proved}
	if stoppedAt >= 0 {
		v.ShortenStopped = fmt.Sprintf("the time budget ran out at step %d of the %d-step path found: the path from there on is as found", stoppedAt, n)
	}
	return v
}

// findingAt returns the finding key of state r, if it has it.
func findingAt(t Target, key string, r []int64, initial bool) (Finding, bool) {
	for _, f := range t.Find(r, initial, func(k string) bool { return k == key }) {
		if f.Key == key {
			return f, true
		}
	}
	return Finding{}, false
}

// replay follows path from the initial state, each step checked by the
// target, and checks that the last state has the finding key. It returns
// the states along the path (the initial one first).
func replay(t Target, key string, path []Step) ([][]int64, Finding, error) {
	mc := t.Machine()
	r := mc.Initial(make([]int64, mc.Width()))
	runs := [][]int64{r}
	for i, s := range path {
		next, err := t.Replay(r, s)
		if err != nil {
			return nil, Finding{}, fmt.Errorf("step %d: %v", i, err)
		}
		r = next
		runs = append(runs, r)
	}
	what, bad := findingAt(t, key, r, slices.Equal(r, runs[0]))
	if !bad {
		return nil, Finding{}, fmt.Errorf("its last runtime %s does not show %q", t.Key(r), key)
	}
	return runs, what, nil
}

// shorten looks for a shorter path to the finding key: breadth-first
// from the initial state (the first state with it found is a shortest
// one: proved), and when that search stops at its cap first,
// breadth-first from each state along the path to the furthest later one
// it reaches in fewer steps than the path takes, or to the finding nearer
// than the path's end. At opt.Deadline it stops and keeps the rest of the
// path as found, returning the position on path it stopped at (-1 when it
// finished).
func shorten(t Target, key string, runs [][]int64, path []Step, opt Options) ([]Step, bool, int) {
	late := func() bool { return !opt.Deadline.IsZero() && !time.Now().Before(opt.Deadline) }
	if late() {
		return path, false, 0
	}
	has := func(r []int64) bool { _, ok := findingAt(t, key, r, slices.Equal(r, runs[0])); return ok }
	p, found, complete := bfs(t, runs[0], opt.Cap, func(r []int64, _ string, _ int) bool { return has(r) }, late)
	switch {
	case found:
		return p, true, -1
	case complete:
		return path, false, -1 // cannot happen for a replayed path; keep it
	case late():
		return path, false, 0
	}
	per := max(64, opt.Cap/max(1, len(path)))
	last := map[string]int{} // a state's last position on the path
	for j, r := range runs {
		last[t.Key(r)] = j
	}
	var out []Step
	for pos := 0; pos < len(path); {
		if late() {
			return append(out, path[pos:]...), false, pos
		}
		var jump int
		p, found, _ := bfs(t, runs[pos], per, func(r []int64, k string, depth int) bool {
			if has(r) {
				return true
			}
			if j := last[k]; j-pos > depth && j > jump {
				jump = j
			}
			return false
		}, late)
		switch {
		case found && len(p) < len(path)-pos:
			return append(out, p...), false, -1
		case jump > 0:
			target := t.Key(runs[jump])
			seg, ok, _ := bfs(t, runs[pos], per, func(_ []int64, k string, _ int) bool { return k == target }, late)
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

// bfs searches breadth-first from root for the first state stop accepts
// (given its words, t.Key and depth; root itself included); it returns
// the path to it, whether it found one, and whether the search ran out of
// states before its cap. It gives up, finding nothing, when late says so
// (asked every 1024 states).
func bfs(t Target, root []int64, cap int, stop func(r []int64, key string, depth int) bool, late func() bool) ([]Step, bool, bool) {
	mc := t.Machine()
	g := explore.NewStore(mc, 0, cap)
	g.Intern(root, -1, -1)
	depth := []int{0}
	if stop(root, t.Key(root), 0) {
		return nil, true, true
	}
	var buf concrete.Buffer
	for i := 0; i < g.Len(); i++ {
		if i%1024 == 1023 && late() {
			return nil, false, false
		}
		r := g.Runtime(i, nil)
		for _, o := range mc.Fired(r, &buf) {
			j, fresh := g.Intern(o.Next, i, o.Label)
			if !fresh {
				continue
			}
			depth = append(depth, depth[i]+1)
			if stop(o.Next, t.Key(o.Next), depth[j]) {
				return pathTo(t, g, j), true, false
			}
			if g.Len() > cap {
				return nil, false, false
			}
		}
	}
	return nil, false, true
}
