package explicit

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/swarm"
)

// Keys of the findings a swarm member hunts on an FCSTM model, before
// what tells two findings of one kind apart.
const (
	raisesKey  = "raises: "
	deadEndKey = "dead end: "
)

// SwarmTarget is mc as a swarm member searches it and a merge replays it
// (docs/scale.md#swarm): the findings hunted are FCSTM-S1's that a state
// shows by itself, a cycle that raises (one finding per distinct error,
// key "raises: " and the error) and a dead end (one per state, key "dead
// end: " and the state's path); a step is a cycle, written as its input
// set. The leaf states never reached are not hunted: only an exhaustive
// search decides them.
//
// Reports cross processes, which may load the model by other paths and
// number locations in other orders, so nothing a step or key says
// depends on either: errors name their file relative to the root file's
// folder, and a step names the states it leaves and enters and its input
// set by event paths.
func SwarmTarget(mc *Machine) swarm.Target {
	t := &swarmTarget{mc: mc, events: map[string]int{}}
	for i, name := range mc.Events() {
		t.events[name] = i
	}
	return t
}

type swarmTarget struct {
	mc     *Machine
	events map[string]int // by path
	buf    concrete.Buffer
	ins    []Input
}

func (t *swarmTarget) Machine() concrete.Machine { return t.mc }

// Hunts is not known beforehand: any cycle may raise its own error.
func (t *swarmTarget) Hunts() (int, string) { return -1, "" }

func (t *swarmTarget) Found(n int) string {
	return fmt.Sprintf("%d finding(s) of FCSTM-S1 (cycles that raise, dead ends)", n)
}

func (t *swarmTarget) Find(words []int64, _ bool, want func(string) bool) []swarm.Finding {
	loc := t.mc.Location(words[0])
	switch loc.Kind {
	case Raised:
		what := t.errText(loc.Err)
		if key := raisesKey + what; want(key) {
			return []swarm.Finding{{Key: key, Code: "FCSTM_CYCLE_RAISES",
				Message: fmt.Sprintf("A cycle raises: %s; the path shown reaches it", what)}}
		}
	case Running:
		if key := deadEndKey + loc.State; want(key) && !changes(t.mc, words, &t.buf) {
			return []swarm.Finding{{Key: key, Code: "FCSTM_DEAD_END",
				Message: fmt.Sprintf("Dead end: in %s, no set of input events changes anything (the machine has not ended); the path shown reaches it", loc.State)}}
		}
	}
	return nil
}

// Rank lists cycles that raise before dead ends, as verify does.
func (t *swarmTarget) Rank(key string) (int, bool) {
	switch {
	case strings.HasPrefix(key, raisesKey):
		return 0, true
	case strings.HasPrefix(key, deadEndKey):
		return 1, true
	}
	return 0, false
}

func (t *swarmTarget) Step(src, next []int64, label int) swarm.Step {
	_, input, _ := t.mc.Describe(label)
	return swarm.Step{From: t.name(src), Event: input, To: t.name(next)}
}

// Replay runs the cycle of s's input set from src: the one outcome of
// Inputs whose class of input sets holds it (the classes cover every
// input set exactly once).
func (t *swarmTarget) Replay(src []int64, s swarm.Step) ([]int64, error) {
	if from := t.name(src); from != s.From {
		return nil, fmt.Errorf("the cycle starts in %s, not %s", from, s.From)
	}
	set, err := t.inputSet(s.Event)
	if err != nil {
		return nil, err
	}
	var outs []concrete.Outcome
	outs, t.ins = t.mc.Inputs(src, &t.buf, t.ins[:0])
	for k, in := range t.ins {
		if !holds(set, in) {
			continue
		}
		next := slices.Clone(outs[k].Next)
		if to := t.name(next); to != s.To {
			return nil, fmt.Errorf("the cycle %s from %s enters %s, not %s", s.Event, s.From, to, s.To)
		}
		return next, nil
	}
	return nil, fmt.Errorf("no cycle runs from %s", s.From)
}

// holds reports whether the input set set belongs to the class in.
func holds(set map[int]bool, in Input) bool {
	for _, e := range in.Present {
		if !set[e] {
			return false
		}
	}
	for _, e := range in.Absent {
		if set[e] {
			return false
		}
	}
	return true
}

// inputSet reads an input set as Describe writes it: "{}" or "{A.e, B.f}".
func (t *swarmTarget) inputSet(s string) (map[int]bool, error) {
	inner, ok := strings.CutPrefix(s, "{")
	if ok {
		inner, ok = strings.CutSuffix(inner, "}")
	}
	if !ok {
		return nil, fmt.Errorf("event %q is not an input set in braces", s)
	}
	set := map[int]bool{}
	if inner == "" {
		return set, nil
	}
	for _, name := range strings.Split(inner, ", ") {
		e, ok := t.events[name]
		if !ok {
			return nil, fmt.Errorf("the input set %s names %q, which is no event of the model", s, name)
		}
		set[e] = true
	}
	return set, nil
}

// Key is the location's name and the words: the name for the reader, the
// words (this process's) for identity.
func (t *swarmTarget) Key(words []int64) string {
	return fmt.Sprint(t.name(words), " ", words)
}

// name names a state's location in a report, the same in every process.
func (t *swarmTarget) name(words []int64) string {
	loc := t.mc.Location(words[0])
	if loc.Kind == Raised {
		return "(raised: " + t.errText(loc.Err) + ")"
	}
	return loc.String()
}

// errText renders a runtime error with its file relative to the root
// file's folder.
func (t *swarmTarget) errText(err error) string {
	var re *runtime.Error
	if !errors.As(err, &re) || re.Pos.Line == 0 {
		return err.Error()
	}
	file, rerr := filepath.Rel(filepath.Dir(t.mc.m.File), re.Pos.File)
	if rerr != nil {
		file = filepath.Base(re.Pos.File)
	}
	return fmt.Sprintf("%s:%d:%d: %s", filepath.ToSlash(file), re.Pos.Line, re.Pos.Col, re.Message)
}
