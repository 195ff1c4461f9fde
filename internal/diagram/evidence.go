package diagram

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/trace"
)

// maxCandidates bounds the runtimes a path replay follows at once: a
// path names states and events only, so a nondeterministic step can leave
// several runtimes in the same state.
const maxCandidates = 32

// FindingOverlay draws a verify or compare finding on the graph of its
// model: its path (for a JSON model m, replayed from the initial runtime
// for the variable values; m is nil for another front end), the state where the walk ends as the violating state,
// and the states a finding without a path is about (a closed cycle, a
// dead end, an unreachable state) highlighted. It returns nil when the
// finding names nothing on the machine.
func FindingOverlay(g *Graph, m *jsonmodel.Model, f *report.Finding) *Overlay {
	ov := &Overlay{Title: f.Code + ": " + f.Message}
	targets := findingTargets(g, f)
	if f.HasPath || len(f.Path) > 0 {
		path := make([][3]string, len(f.Path))
		for i, s := range f.Path {
			path[i] = [3]string{s.From, s.Event, s.To}
		}
		ov.Steps = MatchSteps(g, path)
		switch {
		case m != nil:
			replayPath(g, m, ov)
		default:
			ov.FramesNote = "no variable values: the path is drawn by its states and events"
		}
		switch {
		case len(f.Path) > 0:
			ov.Violating = f.Path[len(f.Path)-1].To
		case m != nil:
			ov.Violating = m.Init
		}
		lassoOf(ov, f)
		if len(targets) > 0 && !strings.HasPrefix(f.Code, "S7") && !strings.HasPrefix(f.Code, "A7") {
			ov.Highlight = targets
			ov.HighlightNote = "target of the finding"
		}
		return ov
	}
	// Without a path only the structural findings are pictures: the
	// states of a closed cycle, a dead end, an unreachable state. (A
	// state that ignores an event is a sentence, not a picture.)
	switch {
	case len(targets) == 0:
		return nil
	case strings.HasPrefix(f.Code, "S3_") || strings.HasPrefix(f.Code, "D4_"):
		ov.HighlightNote = "closed cycle: no exit, no terminal state"
	case strings.HasPrefix(f.Code, "S2_"):
		ov.HighlightNote = "dead end: no outgoing transition"
	case strings.HasPrefix(f.Code, "S1_"):
		ov.HighlightNote = "unreachable"
	default:
		return nil
	}
	ov.Highlight = targets
	return ov
}

// lassoOf marks the cycle of a lasso finding (evidence cycleStart, the
// index of its first cycle step, docs/liveness.md): a cycle that starts
// past the last step is a run that stops in a dead end and stays there.
func lassoOf(ov *Overlay, f *report.Finding) {
	cs, ok := f.Evidence.Get("cycleStart").(int)
	switch {
	case !ok || cs < 0 || cs > len(f.Path):
		return
	case cs == len(f.Path):
		ov.Title += " — the run stops here and stays (dead end)"
	default:
		ov.Cycle = cs + 1
		ov.Title += " — " + ov.CycleText()
	}
}

// findingTargets are the states of the graph a finding's target names.
func findingTargets(g *Graph, f *report.Finding) []string {
	var names []string
	switch t := f.Target.(type) {
	case string:
		names = []string{t}
	case []string:
		names = t
	}
	var out []string
	for _, n := range names {
		if g.byID(n) != nil && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// replayPath fills ov.Frames by stepping the JSON runtime along the path:
// at each step every candidate runtime fires the step's event and keeps
// the outcomes that land in the step's target state. A value the
// candidates disagree on is shown as the set of its values.
func replayPath(g *Graph, m *jsonmodel.Model, ov *Overlay) {
	mc := runtime.Compile(m)
	for _, v := range mc.Vars {
		ov.Vars = append(ov.Vars, v.Name)
	}
	if len(ov.Steps) > 0 && ov.Steps[0].From != m.Init {
		ov.FramesNote = fmt.Sprintf("the path starts in %q, not in the initial state: no variable values", ov.Steps[0].From)
		return
	}
	cands := [][]int64{mc.Initial(make([]int64, mc.Width()))}
	frames := []Frame{frameOf(mc, cands)}
	var buf runtime.StepBuffer
	for i, st := range ov.Steps {
		e, to := mc.EventIndex(st.Event), mc.StateIndex(st.To)
		var next [][]int64
		var fired []int
		for _, r := range cands {
			if e < 0 {
				break
			}
			for _, o := range mc.Step(r, e, &buf) {
				if int(o.Next[0]) != to {
					continue
				}
				if !slices.ContainsFunc(next, func(x []int64) bool { return slices.Equal(x, o.Next) }) {
					next = append(next, slices.Clone(o.Next))
				}
				if !slices.Contains(fired, o.Label) {
					fired = append(fired, o.Label)
				}
			}
		}
		if len(next) == 0 {
			ov.FramesNote = fmt.Sprintf("step %d (%s --%s--> %s) does not replay on the model: values shown up to it", i+1, st.From, st.Event, st.To)
			break
		}
		if len(next) > maxCandidates {
			ov.FramesNote = fmt.Sprintf("after step %d more than %d runtimes match the path: values shown up to it", i+1, maxCandidates)
			break
		}
		// The replay knows which guarded branch fired: keep only its edges.
		ov.Steps[i].Edges = slices.DeleteFunc(ov.Steps[i].Edges, func(k int) bool { return !slices.Contains(fired, g.Edges[k].Source) })
		cands = next
		frames = append(frames, frameOf(mc, cands))
	}
	ov.Frames = frames
}

// frameOf renders the values the candidate runtimes share; a variable on
// which they differ lists its values.
func frameOf(mc *runtime.Machine, cands [][]int64) Frame {
	f := Frame{State: mc.States[cands[0][0]]}
	for v := range mc.Vars {
		var vals []string
		for _, r := range cands {
			s := mc.FormatValue(v, r[1+v])
			if !slices.Contains(vals, s) {
				vals = append(vals, s)
			}
		}
		f.Values = append(f.Values, strings.Join(vals, " | "))
	}
	return f
}

// TraceOverlay draws a bounded trace (a bmc witness or counterexample, a
// prover's trace) on the graph of its JSON model: each step by the
// transition it names, the values of every frame, and the last frame's
// state as the violating one when violating is true.
func TraceOverlay(g *Graph, tr *trace.Trace, title string, violating bool) *Overlay {
	ov := &Overlay{Title: title}
	if len(tr.Frames) > 0 {
		for _, v := range tr.Frames[0].Vars {
			ov.Vars = append(ov.Vars, v.Name)
		}
	}
	bySource := g.EdgesBySource()
	for _, s := range tr.Steps {
		st := Step{From: s.SourceState, To: s.TargetState}
		if len(s.InputEvents) > 0 {
			st.Event = s.InputEvents[0].Path
		}
		if k, ok := bySource[s.Origin]; ok && s.Origin >= 0 {
			st.Edges = []int{k}
		}
		ov.Steps = append(ov.Steps, st)
	}
	for _, f := range tr.Frames {
		fr := Frame{State: f.State}
		for _, name := range ov.Vars {
			v, ok := f.Lookup(name)
			if !ok {
				fr.Values = append(fr.Values, "")
				continue
			}
			fr.Values = append(fr.Values, fmt.Sprint(v))
		}
		ov.Frames = append(ov.Frames, fr)
	}
	if violating && len(tr.Frames) > 0 {
		ov.Violating = tr.Frames[len(tr.Frames)-1].State
	}
	return ov
}
