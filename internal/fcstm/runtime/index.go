package runtime

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// index is a model compiled for the search: states and events numbered,
// each state's outgoing and initial transitions listed in priority order.
type index struct {
	m        *model.Model
	root     *stateInfo
	states   []*stateInfo // by id (pre-order)
	byPath   map[string]*stateInfo
	events   []*model.Event
	eventIdx map[string]int // event path -> number
	varIdx   map[string]int
	varNames []string
	varTypes []expr.Type
}

type stateInfo struct {
	st     *model.State
	id     int
	parent *stateInfo
	depth  int    // number of frames from the root to this state, itself included
	out    []edge // transitions whose source is this state, in the owner's order
	inits  []edge // a composite's initial transitions, in order
}

// edge is a transition with its target and event resolved to the index.
type edge struct {
	t     *model.Transition
	to    *stateInfo // nil: [*]
	event int        // -1: no event
}

func newIndex(m *model.Model) *index {
	ix := &index{m: m, byPath: map[string]*stateInfo{}, eventIdx: map[string]int{}, varIdx: map[string]int{}}
	for i, v := range m.Vars {
		ix.varIdx[v.Name] = i
		ix.varNames = append(ix.varNames, v.Name)
		t := expr.Int
		if v.Type == model.Float {
			t = expr.Real
		}
		ix.varTypes = append(ix.varTypes, t)
	}
	for _, e := range m.Events {
		ix.event(e)
	}
	byState := map[*model.State]*stateInfo{}
	var walk func(s *model.State, parent *stateInfo)
	walk = func(s *model.State, parent *stateInfo) {
		si := &stateInfo{st: s, id: len(ix.states), parent: parent, depth: 1}
		if parent != nil {
			si.depth = parent.depth + 1
		}
		ix.states = append(ix.states, si)
		ix.byPath[s.Path] = si
		byState[s] = si
		for _, c := range s.Children {
			walk(c, si)
		}
	}
	walk(m.Root, nil)
	ix.root = ix.states[0]
	for _, si := range ix.states {
		for _, t := range si.st.Transitions {
			e := edge{t: t, to: byState[t.To], event: -1}
			if t.Event != nil {
				e.event = ix.event(t.Event)
			}
			if t.From == nil {
				si.inits = append(si.inits, e)
			} else if from := byState[t.From]; from != nil {
				from.out = append(from.out, e)
			}
		}
	}
	return ix
}

// event numbers an event, once.
func (ix *index) event(e *model.Event) int {
	if i, ok := ix.eventIdx[e.Path]; ok {
		return i
	}
	ix.eventIdx[e.Path] = len(ix.events)
	ix.events = append(ix.events, e)
	return len(ix.events) - 1
}

// deadEnd reports whether s is a pseudo state without outgoing transitions:
// entering it ends the search path.
func (s *stateInfo) deadEnd() bool { return s.st.Pseudo && len(s.out) == 0 }

func (s *stateInfo) leaf() bool { return len(s.st.Children) == 0 }
