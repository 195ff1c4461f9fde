package lower

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/sts"
)

// mode and frame mirror the runtime's on purpose: the lowering is an
// independent replica of the inner loop (docs/architecture.md), so it
// shares no code with the runtime that replays its witnesses.
type mode uint8

const (
	active        mode = iota
	afterEntry         // a leaf that has just run its during chain
	initWait           // a composite that must take an initial transition
	postChildExit      // a composite whose child has left through [*]
)

type frame struct {
	n       *node
	mode    mode
	pending bool // the composite's plain "during before" has not run yet
}

// path is one branch of the symbolic inner loop: the runtime stack, and
// what the case built along it requires and does.
type path struct {
	frames   []frame
	conds    []sts.Cond
	events   []sts.EventLit
	priority []int
	effects  []sts.Effect
	calls    []sts.Call
	consumed []int
	// types is the static type of every variable's current value: an int
	// variable holds a real value after a division until its writeback.
	types []expr.Type
	steps int
	seen  []signature
	fired bool // the source leaf took a transition
}

// signature is a configuration the loop passed on this path, with the
// number of effects run by then (same count, same values).
type signature struct {
	frames  []frame
	effects int
}

func (p *path) clone() *path {
	q := *p
	q.frames = slices.Clone(p.frames)
	q.conds = slices.Clip(p.conds)
	q.events = slices.Clip(p.events)
	q.priority = slices.Clip(p.priority)
	q.effects = slices.Clip(p.effects)
	q.calls = slices.Clip(p.calls)
	q.consumed = slices.Clip(p.consumed)
	q.types = slices.Clone(p.types)
	q.seen = slices.Clip(p.seen)
	return &q
}

func (p *path) top() *frame { return &p.frames[len(p.frames)-1] }

// eventKnown reports whether the path already fixed event ev, and how.
func (p *path) eventKnown(ev int) (present, known bool) {
	for _, lit := range p.events {
		if lit.Event == ev {
			return lit.Present, true
		}
	}
	return false, false
}

// run continues the inner loop on p until the cycle stops, adding a case
// for every way it ends on a stoppable leaf or terminates. A path that
// fails (a dead end, no candidate, a repeated configuration) adds nothing.
func (l *lowering) run(p *path) error {
	for {
		if len(p.frames) == 0 {
			return l.finish(p, sts.TerminatedID)
		}
		top := p.top()
		n := top.n
		if !n.st.Stoppable() {
			if loop, err := l.repeats(p); loop || err != nil {
				if loop {
					l.deadEnds++ // the runtime prunes the path
				}
				return err
			}
		}
		p.steps++
		l.work++
		switch {
		case p.steps > model.MaxSteps || len(p.frames) > model.MaxDepth:
			// The runtime raises a search-limit error on this path: an
			// error step, like a division by zero.
			l.errorCase(p, sts.Cond{After: len(p.effects), Expr: &expr.BoolLit{Value: true}, Mode: sts.Holds, Src: source(n.st.Pos)})
			return nil
		case l.work > maxWork:
			return &Error{Pos: l.srcPos(), Msg: fmt.Sprintf("expanding one cycle from %s exceeds the work limit (%d steps)", l.sys.LocationName(l.src), maxWork)}
		}
		switch {
		case n.deadEnd():
			l.deadEnds++
			return nil
		case n.leaf() && top.mode == afterEntry:
			top.mode = active
			if n.st.Stoppable() {
				return l.finish(p, n.st.ID)
			}
		case n.leaf() && n.st.Stoppable():
			take := func(q *path, e edge) error {
				q.fired = true
				return l.takeTransition(q, e)
			}
			return l.choose(p, n.out, take, func(q *path) error {
				// No transition: the leaf runs its during chain and stays.
				if err := l.duringChain(q, q.top().n); err != nil {
					return err
				}
				q.top().mode = afterEntry
				return l.run(q)
			})
		case n.leaf():
			return l.chooseShared(p, n.out)
		case top.mode == initWait:
			return l.choose(p, n.inits, l.takeInitial, l.fail)
		case top.mode == postChildExit:
			return l.choose(p, n.out, l.takeTransition, l.fail)
		default:
			return &Error{Pos: n.st.Pos, Msg: fmt.Sprintf("internal error: composite %s is on top of the stack without a child", n.st.Path)}
		}
	}
}

// fail ends a path on which no candidate is accepted: the runtime refuses
// it, and no case is added.
func (l *lowering) fail(*path) error {
	l.deadEnds++
	return nil
}

// repeats records p's configuration and reports whether the path passed
// it before with the same variable values (the runtime prunes it). A
// configuration that comes back after actions ran may or may not repeat
// the values: the replica cannot decide that without a solver.
func (l *lowering) repeats(p *path) (bool, error) {
	for _, sg := range p.seen {
		if slices.Equal(sg.frames, p.frames) {
			if sg.effects == len(p.effects) {
				return true, nil
			}
			return false, &Error{Pos: p.top().n.st.Pos, Msg: fmt.Sprintf("action-dependent pseudo loop through %s: whether it repeats depends on values its actions change", p.top().n.st.Path)}
		}
	}
	p.seen = append(p.seen, signature{frames: slices.Clone(p.frames), effects: len(p.effects)})
	return false, nil
}

// choose tries the candidates in order (docs/fcstm.md, "The runtime cycle").
// The branch that takes a candidate continues to the end of the cycle; the
// branch that goes on to the next candidate requires that no case of the
// taken branch holds (declaration order, first accepted wins, validation
// included). none continues when no candidate is accepted.
func (l *lowering) choose(p *path, cands []edge, take func(*path, edge) error, none func(*path) error) error {
	for _, e := range cands {
		q := p.clone()
		sure := true // q requires nothing p does not
		if e.event >= 0 {
			present, known := p.eventKnown(e.event)
			if known && !present {
				continue
			}
			if !known {
				l.test(p, e.event)
				q.events = append(q.events, sts.EventLit{Event: e.event, Present: true})
				sure = false
			}
		}
		if e.t.Guard != nil {
			sure = false
			if err := l.condition(q, e.t.Guard, e.t.Pos, sts.Holds); err != nil {
				return err
			}
		}
		// Cases that add nothing to these requirements hold whenever the
		// candidate is reached. (A guard's error case comes before start.)
		nc, ne, np, start := len(q.conds), len(q.events), len(q.priority), len(l.cases)
		if err := take(q, e); err != nil {
			return err
		}
		if err := l.run(q); err != nil {
			return err
		}
		if len(l.cases) > MaxCasesPerSource {
			return nil // expand reports it
		}
		taken := make([]int, 0, len(l.cases)-start)
		for k := start; k < len(l.cases); k++ {
			taken = append(taken, k)
			c := &l.cases[k]
			if sure && c.Kind != sts.Error && len(c.Conds) == nc && len(c.Events) == ne && len(c.Priority) == np {
				// The candidate is accepted whenever it is reached.
				return nil
			}
		}
		p = p.clone()
		p.priority = append(p.priority, taken...)
	}
	return none(p)
}

// test records that the inner loop, on path p, tests whether ev is
// present (the runtime tests a candidate's event before its guard). An
// event p already requires present was tested on the way to p.
func (l *lowering) test(p *path, ev int) {
	l.tests = append(l.tests, sts.Test{Event: ev, Before: len(l.cases), Path: sts.Case{
		Kind: sts.Error, Source: l.src, Target: l.src,
		Conds: slices.Clip(p.conds), Events: slices.Clip(p.events), Effects: slices.Clip(p.effects),
	}})
}

// condition adds a condition read at this point of the path (a guard, a
// writeback check) in mode; a condition that can fail at run time first
// splits off the error case of its evaluation.
func (l *lowering) condition(p *path, e expr.Expr, pos model.Pos, m sts.CondMode) error {
	e, err := l.supported(p, e, pos)
	if err != nil {
		return err
	}
	c := sts.Cond{After: len(p.effects), Expr: e, Mode: m, Src: source(pos)}
	if partial(e) {
		l.errorCase(p, sts.Cond{After: c.After, Expr: e, Mode: sts.Undefined, Src: c.Src})
	}
	p.conds = append(p.conds, c)
	return nil
}

// errorCase adds the case in which the runtime raises at this point of p:
// when c holds (in its mode).
func (l *lowering) errorCase(p *path, c sts.Cond) {
	l.add(sts.Case{Kind: sts.Error, Source: l.src, Target: l.src,
		Conds: append(slices.Clip(p.conds), c), Events: slices.Clone(p.events), Priority: slices.Clone(p.priority),
		Effects: slices.Clone(p.effects), Src: c.Src})
}

// finish adds the case p ends in.
func (l *lowering) finish(p *path, target int) error {
	kind := sts.Initial
	if l.src >= 0 && l.nodes[l.src].st.Stoppable() {
		kind = sts.Fallback
		if p.fired {
			kind = sts.Transition
		}
	}
	l.add(sts.Case{
		Kind: kind, Source: l.src, Target: target,
		Conds: p.conds, Events: p.events, Priority: p.priority,
		Effects: p.effects, Calls: p.calls, Consumes: p.consumed,
		Gamma: kind == sts.Fallback, Src: posSource(l.srcPos(), l.sys.LocationName(l.src)),
	})
	return nil
}

// takeTransition leaves the state on top (a leaf, or a composite whose
// child has exited) through e.
func (l *lowering) takeTransition(p *path, e edge) error {
	src := p.top().n
	if err := l.actions(p, src.st.Exit, src, src); err != nil {
		return err
	}
	if err := l.effect(p, e); err != nil {
		return err
	}
	p.frames = p.frames[:len(p.frames)-1]
	return l.arrive(p, e)
}

// takeInitial takes an initial transition of the composite on top.
func (l *lowering) takeInitial(p *path, e edge) error {
	if err := l.effect(p, e); err != nil {
		return err
	}
	return l.arrive(p, e)
}

// arrive finishes a transition in the composite now on top: into a
// sibling, or out through [*].
func (l *lowering) arrive(p *path, e edge) error {
	if e.to == nil {
		return l.exitToParent(p)
	}
	owner := p.top()
	if owner.pending && !e.to.st.Pseudo {
		owner.pending = false
		on := owner.n
		if err := l.actions(p, on.st.DuringBefore, on, on); err != nil {
			return err
		}
	}
	return l.enter(p, e.to)
}

// exitToParent ends the child of the composite on top: its plain "during
// after", then post_child_exit, or the end of the machine at the root.
func (l *lowering) exitToParent(p *path) error {
	owner := p.top()
	owner.pending = false
	on := owner.n
	if err := l.actions(p, on.st.DuringAfter, on, on); err != nil {
		return err
	}
	if on.parent != nil {
		p.top().mode = postChildExit
		return nil
	}
	if err := l.actions(p, on.st.Exit, on, on); err != nil {
		return err
	}
	p.frames = p.frames[:0]
	return nil
}

// enter pushes n and runs its entry.
func (l *lowering) enter(p *path, n *node) error {
	p.frames = append(p.frames, frame{n: n, mode: active})
	if n.deadEnd() {
		return nil
	}
	if err := l.actions(p, n.st.Enter, n, n); err != nil {
		return err
	}
	if n.leaf() {
		if err := l.duringChain(p, n); err != nil {
			return err
		}
		p.top().mode = afterEntry
		return nil
	}
	top := p.top()
	top.mode, top.pending = initWait, true
	return nil
}

// effect runs a transition's effect and records its event as consumed.
func (l *lowering) effect(p *path, e edge) error {
	if e.event >= 0 && !slices.Contains(p.consumed, e.event) {
		p.consumed = append(p.consumed, e.event)
	}
	if len(e.t.Effect) == 0 {
		return nil
	}
	return l.block(p, e.t.Effect)
}
