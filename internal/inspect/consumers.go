package inspect

import (
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// topologyAlgorithm names the structural reachability in the refs of
// W_EVENT_UNREACHABLE_EMIT (pyfcstm's algorithm_name field).
const topologyAlgorithm = "topology_reachability"

// deadConsumers finds the events every transition triggered by which
// leaves a state no run enters (by structure; a combo's hop counts by the
// source of the transition written), and returns those transitions,
// written ones only, as the consumers of an event nothing can consume.
// An event no transition uses is W_UNUSED_EVENT's, not one of these.
func (a *analysis) deadConsumers() (dead map[*model.Transition]bool, count map[*model.Event]int) {
	consumers := map[*model.Event][]*model.Transition{}
	live := map[*model.Event]bool{}
	states(a.m.Root, func(s *model.State) {
		for _, t := range s.Transitions {
			if t.Event == nil {
				continue
			}
			if a.live[sourceState(t)] {
				live[t.Event] = true
			}
			consumers[t.Event] = append(consumers[t.Event], t)
		}
	})
	dead, count = map[*model.Transition]bool{}, map[*model.Event]int{}
	for ev, ts := range consumers {
		if live[ev] {
			continue
		}
		written := map[*model.Transition]bool{} // a combo's hops and forced copies count as the one written
		for _, t := range ts {
			if t.Origin == nil {
				dead[t] = true
			}
			for t.Origin != nil {
				t = t.Origin
			}
			written[t] = true
		}
		count[ev] = len(written)
	}
	return dead, count
}

// unreachableEmits reports W_EVENT_UNREACHABLE_EMIT on the declaration,
// in the root file, of each event whose every consumer leaves a state no
// run enters: sending it can never make anything happen.
func (a *analysis) unreachableEmits(count map[*model.Event]int) {
	if a.tree == nil || a.tree.Root == nil || len(count) == 0 {
		return
	}
	declStates(a.tree.Root, "", func(path string, d *ast.StateDecl) {
		for _, it := range d.Items {
			e, ok := it.(*ast.EventDecl)
			if !ok {
				continue
			}
			ev := a.m.EventByPath[path+"."+e.Name.Name]
			if ev == nil || count[ev] == 0 {
				continue
			}
			a.emit("W_EVENT_UNREACHABLE_EMIT", a.file, a.stmtSpan(model.Pos{File: a.file, Line: e.Pos.Line, Col: e.Pos.Col}),
				map[string]any{"algorithm_name": topologyAlgorithm, "verification_scope": "topological_only", "event_name": ev.Path, "consumer_count": count[ev]},
				"event %s triggers only transitions from states no run enters (%d): no emitter of it can make anything happen", ev.Path, count[ev])
		}
	})
}
