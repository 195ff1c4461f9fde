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
	blocks   map[blockKey][]stmt // action blocks compiled so far
}

type stateInfo struct {
	st     *model.State
	id     int
	parent *stateInfo
	depth  int    // number of frames from the root to this state, itself included
	out    []edge // transitions whose source is this state, in the owner's order
	inits  []edge // a composite's initial transitions, in order
	// ancestors are the nearest MaxDepth+1 ancestors, parent first: the
	// states whose aspects a leaf's during chain runs.
	ancestors []*stateInfo
}

// edge is a transition with its target and event resolved to the index,
// its guard and effect compiled.
type edge struct {
	t      *model.Transition
	to     *stateInfo    // nil: [*]
	event  int           // -1: no event
	guard  *expr.Program // nil: no guard
	effect []stmt
}

// stmt is a statement of an operation block compiled against the
// variables' slots: an assignment (assign set) or an if (ifs set).
type stmt struct {
	assign *model.Assign
	slot   int // the persistent variable assign writes; -1: a temporary
	value  *expr.Program
	ifs    *model.If
	conds  []*expr.Program // per branch
	bodies [][]stmt        // per branch
	els    []stmt
}

// blockKey names an operation block by its storage.
type blockKey struct {
	first *model.Stmt
	n     int
}

func newIndex(m *model.Model) *index {
	ix := &index{m: m, byPath: map[string]*stateInfo{}, eventIdx: map[string]int{}, varIdx: map[string]int{}, blocks: map[blockKey][]stmt{}}
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
		for a := parent; a != nil && len(si.ancestors) < MaxDepth+1; a = a.parent {
			si.ancestors = append(si.ancestors, a)
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
			e := edge{t: t, to: byState[t.To], event: -1, effect: ix.compileBlock(t.Effect)}
			if t.Guard != nil {
				e.guard = expr.Compile(t.Guard, ix.slot)
			}
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

// slot resolves a persistent variable to its index in the variables.
func (ix *index) slot(name string) (int, bool) {
	i, ok := ix.varIdx[name]
	return i, ok
}

// block returns ops compiled, compiling it on first use.
func (ix *index) block(ops []model.Stmt) []stmt {
	if len(ops) == 0 {
		return nil
	}
	k := blockKey{&ops[0], len(ops)}
	b, ok := ix.blocks[k]
	if !ok {
		b = ix.compileBlock(ops)
		ix.blocks[k] = b
	}
	return b
}

// compileBlock compiles a block's statements (other kinds of statement
// than assignments and ifs do nothing, as they never did).
func (ix *index) compileBlock(ops []model.Stmt) []stmt {
	var out []stmt
	for _, op := range ops {
		switch op := op.(type) {
		case *model.Assign:
			slot := -1
			if i, ok := ix.varIdx[op.Name]; ok && !op.Temp {
				slot = i
			}
			out = append(out, stmt{assign: op, slot: slot, value: expr.Compile(op.Value, ix.slot)})
		case *model.If:
			st := stmt{ifs: op, els: ix.compileBlock(op.Else)}
			for _, b := range op.Branches {
				st.conds = append(st.conds, expr.Compile(b.Cond, ix.slot))
				st.bodies = append(st.bodies, ix.compileBlock(b.Body))
			}
			out = append(out, st)
		}
	}
	return out
}
