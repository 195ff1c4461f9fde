package explicit

import (
	"errors"
	"fmt"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/report"
)

// Check identifies the search check of an FCSTM verify report.
const (
	CheckID   = "FCSTM-S1"
	CheckName = "State Space Search"
)

// Check searches m breadth-first, storing at most maxStates states, and
// reports what the explored graph decides (docs/fcstm.md, "stateproof
// verify MODEL.fcstm"): cycles that raise, dead ends, and, when the search
// was exhaustive, the leaf states it never reached. skip lists leaf
// states another check already reports as unreachable.
func Check(m *model.Model, maxStates int, skip map[string]bool) report.Check {
	c := report.Check{ID: CheckID, Name: CheckName}
	mc, err := New(m)
	if err != nil {
		c.Detail = "Not searched: the cold start fails (" + err.Error() + ")"
		return c
	}
	g, live := search(mc, maxStates)
	reached := map[string]bool{}
	dead := map[string]int{} // first dead-end node per state
	var deadOrder, raised, undecided []int
	for i := range g.Len() {
		loc := mc.Location(int64(g.StateOf(i)))
		switch loc.Kind {
		case Running:
			reached[loc.State] = true
			if i < g.Expanded && !live[i] {
				if _, ok := dead[loc.State]; !ok {
					dead[loc.State] = i
					deadOrder = append(deadOrder, i)
				}
			}
		case Raised:
			raised = append(raised, i)
		case Undecided:
			undecided = append(undecided, i)
		}
	}
	for _, i := range raised {
		c.Findings = append(c.Findings, raiseFinding(g, mc, i))
	}
	for _, i := range deadOrder {
		st := mc.Location(int64(g.StateOf(i))).State
		f := report.Finding{Code: "FCSTM_DEAD_END", Severity: report.Warning, Target: st,
			Message: fmt.Sprintf("Dead end: in %s, no set of input events changes anything (the machine has not ended); the path shown reaches it", st),
			Path:    path(g, i), HasPath: true}
		c.Findings = append(c.Findings, f)
	}
	exhaustive := !g.Truncated && len(undecided) == 0
	if exhaustive {
		c.Findings = append(c.Findings, unreached(m, reached, skip, len(raised) > 0)...)
	} else {
		c.Findings = append(c.Findings, undecidedFinding(g, mc, undecided, maxStates))
	}
	c.Detail = fmt.Sprintf("%d states searched; no cycle raises, no dead end, every leaf state reached", g.Len())
	if len(c.Findings) > 0 {
		c.Detail = fmt.Sprintf("%d states searched; %d finding(s)", g.Len(), len(c.Findings))
	}
	return c
}

// search explores mc and marks the expanded nodes with a step that
// changes something (a successor other than the node itself or a raised
// location): the others are dead ends.
func search(mc *Machine, maxStates int) (*explore.Graph, []bool) {
	var live []bool
	src := make([]int64, mc.Width())
	last := -1
	onEdge := func(g *explore.Graph, from, t int, next []int64) explore.Edge {
		for len(live) <= from {
			live = append(live, false)
		}
		if from != last {
			g.Runtime(from, src)
			last = from
		}
		if !live[from] && mc.Location(next[0]).Kind != Raised && !equal(src, next[:len(src)]) {
			live[from] = true
		}
		return explore.Keep
	}
	g := explore.Search{Machine: mc, Cap: maxStates, OnEdge: onEdge}.Run()
	for len(live) < g.Len() {
		live = append(live, false)
	}
	return g, live
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

// raiseFinding reports the raised location node i with its shortest path.
func raiseFinding(g *explore.Graph, mc *Machine, i int) report.Finding {
	err := mc.Location(int64(g.StateOf(i))).Err
	var from string
	if p, _ := g.Parent(i); p >= 0 {
		from = mc.Location(int64(g.StateOf(p))).String()
	}
	f := report.Finding{Code: "FCSTM_CYCLE_RAISES", Severity: report.Error, Target: from,
		Message: fmt.Sprintf("A cycle from %s raises: %v; the path shown reaches it", from, err),
		Path:    path(g, i), HasPath: true}
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
func undecidedFinding(g *explore.Graph, mc *Machine, undecided []int, maxStates int) report.Finding {
	ev := report.O("cap", maxStates, "explored", g.Len())
	if g.Truncated {
		return report.Finding{Code: "FCSTM_SEARCH_UNDECIDED", Severity: report.Warning, Evidence: ev,
			Message: fmt.Sprintf("Could not decide which leaf states are reachable: state cap reached — the search stopped at --max-states %d runtime states; raise --max-states and re-run", maxStates)}
	}
	i := undecided[0] // the first found: its path is the shortest
	return report.Finding{Code: "FCSTM_SEARCH_UNDECIDED", Severity: report.Warning, Evidence: ev, Path: path(g, i), HasPath: true,
		Message: fmt.Sprintf("Could not decide which leaf states are reachable: the search cannot go on where %s; the path shown reaches it", mc.Location(int64(g.StateOf(i))).Reason)}
}

// Verify adds the search to a lint result, as `verify MODEL.fcstm` and the
// MCP verify tool report it: the report's cap is maxStates, and the states
// FCSTM-L1 already reports as unreachable by structure are not reported
// again. A result whose model did not load is left as it is.
func Verify(res *lint.Result, maxStates int) {
	if res.Model == nil {
		return
	}
	res.Report.MaxStates = maxStates
	res.Report.Checks = append(res.Report.Checks, Check(res.Model, maxStates, structurallyUnreachable(res.Report)))
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
