package explicit

import (
	"errors"
	"fmt"
	"sync"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/report"
)

// Check identifies the search check of an FCSTM verify report.
const (
	CheckID   = "FCSTM-S1"
	CheckName = "State Space Search"
)

// Options are the settings of a search. Workers and Spill change how the
// search runs, never what it reports: the graph is the same, node for node
// (docs/scale.md).
type Options struct {
	MaxStates int
	// Workers is how many goroutines expand states (0 or 1: the caller's).
	Workers int
	// Spill, when set, keeps what passes its memory budget on disk.
	Spill *explore.Spill
	// Done, when closed, stops the search as its cap would.
	Done <-chan struct{}
	// Explored, when set, is the search made elsewhere (a partitioned
	// search over many processes) over a Machine of the model, with Cap
	// MaxStates: the graph Search builds, node for node. Check reads it
	// instead of searching.
	Explored *explore.Graph
	// Reached, when set, is what a partitioned search tells of the
	// exploration instead of its graph; Check reads it instead of
	// searching.
	Reached *Reached
}

// Check searches m breadth-first, storing at most opts.MaxStates states,
// and reports what the explored graph decides (docs/fcstm.md, "stateproof
// verify MODEL.fcstm"): cycles that raise, dead ends, and, when the search
// was exhaustive, the leaf states it never reached. skip lists leaf
// states another check already reports as unreachable. It returns what
// the search spilled (zero when it fit in memory) and a spill store
// error, after which the check is incomplete and must not be shown.
func Check(m *model.Model, opts Options, skip map[string]bool) (report.Check, explore.SpillStats, error) {
	c := report.Check{ID: CheckID, Name: CheckName}
	var s searched
	var stats explore.SpillStats
	if r := opts.Reached; r != nil && r.Machine != nil {
		s = fromReached(r)
	} else {
		g := opts.Explored
		mc, ok := explicitMachine(g)
		if !ok {
			var err error
			if mc, err = New(m); err != nil {
				c.Detail = "Not searched: the cold start fails (" + err.Error() + ")"
				return c, explore.SpillStats{}, nil
			}
			g = explore.Search{Machine: mc, Cap: opts.MaxStates, Workers: opts.Workers, Spill: opts.Spill, Done: opts.Done}.Run()
		}
		s = fromGraph(g, mc, opts.Workers)
		stats = g.SpillStats()
		if err := g.Err(); err != nil && !g.DiskBudgetReached() {
			return c, stats, err
		}
	}
	for _, n := range s.raised {
		c.Findings = append(c.Findings, raiseFinding(n))
	}
	for _, n := range s.dead {
		st := n.loc.State
		f := report.Finding{Code: "FCSTM_DEAD_END", Severity: report.Warning, Target: st,
			Message: fmt.Sprintf("Dead end: in %s, no set of input events changes anything (the machine has not ended); the path shown reaches it", st),
			Path:    n.path, HasPath: true}
		c.Findings = append(c.Findings, f)
	}
	if !s.truncated && s.undecided == nil {
		c.Findings = append(c.Findings, unreached(m, s.reached, skip, len(s.raised) > 0)...)
	} else {
		c.Findings = append(c.Findings, undecidedFinding(s, opts))
	}
	c.Detail = fmt.Sprintf("%d states searched; no cycle raises, no dead end, every leaf state reached", s.n)
	if len(c.Findings) > 0 {
		c.Detail = fmt.Sprintf("%d states searched; %d finding(s)", s.n, len(c.Findings))
	}
	return c, stats, nil
}

// fromGraph reads what Check reports from the explored graph.
func fromGraph(g *explore.Graph, mc *Machine, workers int) searched {
	s := searched{n: g.Len(), truncated: g.Truncated, diskBudget: g.DiskBudgetReached(), reached: map[string]bool{}}
	at := func(i int) node {
		n := node{index: i, loc: mc.Location(int64(g.StateOf(i))), path: path(g, i)}
		if p, _ := g.Parent(i); p >= 0 {
			n.from = mc.Location(int64(g.StateOf(p))).String()
		}
		return n
	}
	for i := range g.Len() {
		loc := mc.Location(int64(g.StateOf(i)))
		switch loc.Kind {
		case Running:
			s.reached[loc.State] = true
		case Raised:
			s.raised = append(s.raised, at(i))
		case Undecided:
			if s.undecided == nil {
				n := at(i)
				s.undecided = &n
			}
		}
	}
	for _, i := range deadEnds(g, mc, workers) {
		s.dead = append(s.dead, at(i))
	}
	return s
}

// explicitMachine returns the machine a graph made elsewhere was built
// over: its words mean something only to that machine.
func explicitMachine(g *explore.Graph) (*Machine, bool) {
	if g == nil {
		return nil, false
	}
	mc, ok := g.M.(*Machine)
	return mc, ok
}

// deadEnds returns, in node order, the first expanded node of each
// running state from which no step changes anything (every successor is
// the node itself or a raised location). It reads the finished graph, so
// it is the same whatever the workers or the spilling: a node that is
// the parent of a node not raised has a step that changes something (its
// child is new), and only the others are stepped again, in windows shared
// out over workers goroutines. Breadth-first numbering makes parents
// non-decreasing in node order, so one pass over the parent links finds
// the children, with no per-node memory.
func deadEnds(g *explore.Graph, mc *Machine, workers int) []int {
	var out []int
	found := map[string]bool{}
	w := mc.Width()
	src := make([]int64, g.Width())
	var window []int
	var words []int64
	flush := func() {
		dead := stepWindow(mc, words, workers)
		for k, i := range window {
			if st := mc.Location(words[k*w]).State; dead[k] && !found[st] {
				found[st] = true
				out = append(out, i)
			}
		}
		window, words = window[:0], words[:0]
	}
	j := 1 // the next node whose parent is looked at
	for i := 0; i < g.Expanded; i++ {
		parent := false
		for ; j < g.Len(); j++ {
			p, _ := g.Parent(j)
			if p > i {
				break
			}
			if p == i && mc.Location(int64(g.StateOf(j))).Kind != Raised {
				parent = true
			}
		}
		loc := mc.Location(int64(g.StateOf(i)))
		if loc.Kind != Running || parent || found[loc.State] {
			continue
		}
		window = append(window, i)
		words = append(words, g.Runtime(i, src)...)
		if len(window) == deadWindow {
			flush()
		}
	}
	flush()
	return out
}

// deadWindow is how many nodes deadEnds steps at once: enough to share
// out, few enough that their words stay small beside a spilled graph.
const deadWindow = 4096

// stepWindow reports, per state of words (Width words each), whether no
// step from it changes anything, stepping on up to workers goroutines.
func stepWindow(mc *Machine, words []int64, workers int) []bool {
	w := mc.Width()
	n := len(words) / w
	dead := make([]bool, n)
	parts := max(1, min(workers, n/64))
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf concrete.Buffer
			for k := p * n / parts; k < (p+1)*n/parts; k++ {
				dead[k] = !changes(mc, words[k*w:(k+1)*w], &buf)
			}
		}()
	}
	wg.Wait()
	return dead
}

// changes reports whether some step from src enters a state other than
// src that is not a raised location.
func changes(mc *Machine, src []int64, buf *concrete.Buffer) bool {
	for _, o := range mc.Successors(src, buf) {
		if mc.Location(o.Next[0]).Kind != Raised && !equal(src, o.Next) {
			return true
		}
	}
	return false
}

func equal(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func path(g *explore.Graph, i int) []report.Step {
	var out []report.Step
	for _, s := range g.Path(i) {
		out = append(out, report.Step{From: s.From, Event: s.Event, To: s.To})
	}
	return out
}

// raiseFinding reports a raised location with its shortest path.
func raiseFinding(n node) report.Finding {
	err, from := n.loc.Err, n.from
	f := report.Finding{Code: "FCSTM_CYCLE_RAISES", Severity: report.Error, Target: from,
		Message: fmt.Sprintf("A cycle from %s raises: %v; the path shown reaches it", from, err),
		Path:    n.path, HasPath: true}
	var re *runtime.Error
	if errors.As(err, &re) && re.Pos.Line > 0 {
		f.Evidence = report.Obj{{Key: "file", Value: re.Pos.File}, {Key: "line", Value: re.Pos.Line}, {Key: "col", Value: re.Pos.Col}}
	}
	return f
}

// unreached lists the stoppable leaves of m that no reached
// configuration rests in, in source order.
//
// A cycle that raises is rolled back, so the machine never rests in a
// state such a cycle entered; when some cycle raises, the reason may be
// the raise rather than the guards, and the message says so.
func unreached(m *model.Model, reached, skip map[string]bool, raises bool) []report.Finding {
	why := "the guards and variables rule it out"
	if raises {
		why = "the guards and variables rule it out, or every cycle that enters it raises: see FCSTM_CYCLE_RAISES"
	}
	var out []report.Finding
	var walk func(s *model.State)
	walk = func(s *model.State) {
		if s.Stoppable() && !s.Combo && !reached[s.Path] && !skip[s.Path] {
			out = append(out, report.Finding{Code: "FCSTM_UNREACHED_STATE", Severity: report.Warning, Target: s.Path,
				Evidence: report.Obj{{Key: "file", Value: s.Pos.File}, {Key: "line", Value: s.Pos.Line}, {Key: "col", Value: s.Pos.Col}},
				Message:  fmt.Sprintf("Leaf state %s is never reached: the exhaustive search of every input set from the cold start never rests in it (%s)", s.Path, why)})
		}
		for _, ch := range s.Children {
			walk(ch)
		}
	}
	walk(m.Root)
	return out
}

// undecidedFinding says why leaf reachability is not decided.
func undecidedFinding(s searched, opts Options) report.Finding {
	maxStates := opts.MaxStates
	ev := report.O("cap", maxStates, "explored", s.n)
	if s.diskBudget {
		return report.Finding{Code: "FCSTM_SEARCH_UNDECIDED", Severity: report.Warning, Evidence: ev,
			Message: fmt.Sprintf("Could not decide which leaf states are reachable: disk budget reached — the search stopped at --max-disk after %d runtime states; raise --max-disk and re-run (docs/scale.md)", s.n)}
	}
	if s.truncated {
		return report.Finding{Code: "FCSTM_SEARCH_UNDECIDED", Severity: report.Warning, Evidence: ev,
			Message: fmt.Sprintf("Could not decide which leaf states are reachable: state cap reached — the search stopped at --max-states %d runtime states; raise --max-states and re-run", maxStates)}
	}
	n := s.undecided
	return report.Finding{Code: "FCSTM_SEARCH_UNDECIDED", Severity: report.Warning, Evidence: ev, Path: n.path, HasPath: true,
		Message: fmt.Sprintf("Could not decide which leaf states are reachable: the search cannot go on where %s; the path shown reaches it", n.loc.Reason)}
}

// Verify adds the search to a lint result, as `verify MODEL.fcstm` and the
// MCP verify tool report it: the report's cap is opts.MaxStates, and the
// states FCSTM-L1 already reports as unreachable by structure are not
// reported again. A result whose model did not load is left as it is. The
// spill statistics and the error are Check's.
func Verify(res *lint.Result, opts Options) (explore.SpillStats, error) {
	if res.Model == nil {
		return explore.SpillStats{}, nil
	}
	res.Report.MaxStates = opts.MaxStates
	c, stats, err := Check(res.Model, opts, structurallyUnreachable(res.Report))
	res.Report.Checks = append(res.Report.Checks, c)
	return stats, err
}

// structurallyUnreachable lists the states FCSTM-L1 reports.
func structurallyUnreachable(rep *report.VerifyReport) map[string]bool {
	skip := map[string]bool{}
	for _, c := range rep.Checks {
		if c.ID != lint.CheckReach {
			continue
		}
		for _, f := range c.Findings {
			if s, ok := f.Target.(string); ok {
				skip[s] = true
			}
		}
	}
	return skip
}
