package lower

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/sts"
)

// Shared expansion of a pseudo state's choice (docs/fcstm.md, "Pseudo
// chains"). Expanded per path, a chain of n pseudo states with a guarded
// and a default branch each has 2^n paths, and so 2^n cases with
// priorities over each other. When every candidate of a pseudo leaf comes
// back to the same runtime stack, the candidates are instead joined into
// one path: each guard is read once into a temporary, each branch's
// effects run on temporaries of their own, and every variable a branch
// wrote takes the value of the first branch whose guard holds. The
// continuation is expanded once, so a chain costs one case per way it ends
// instead of one per path.
//
// The join is exact only when the first candidate whose guard holds is the
// one the runtime takes, that is when no candidate can be refused by its
// continuation: the continuation must end in a case (or an error case)
// for every valuation, which the expansion knows structurally (no dead
// end, no candidate list that runs out, no pruned loop on the way:
// lowering.deadEnds). Everything else the join would have to track per
// branch (events, calls, error cases, conditions read inside a branch, a
// different stack or value type) makes it fall back to the per-path
// expansion, which remains the reference.

// branch is one candidate of a shared choice: its guard (nil: always
// taken when reached) and the path after its transition.
type branch struct {
	guard expr.Expr
	q     *path
}

// chooseShared tries the candidates of the pseudo leaf on top of p as one
// shared path, and falls back to choose when they cannot be joined.
func (l *lowering) chooseShared(p *path, cands []edge) error {
	if l.share(p, cands) {
		return nil
	}
	return l.choose(p, cands, l.takeTransition, l.fail)
}

// share expands p's candidates as one joined path and reports whether it
// did; when it did not, it left the cases and dead-end count as it found
// them (an error on the way is reproduced by the per-path expansion).
func (l *lowering) share(p *path, cands []edge) bool {
	start, ends, tests := len(l.cases), l.deadEnds, len(l.tests)
	undo := func() bool {
		l.cases, l.deadEnds, l.tests = l.cases[:start], ends, l.tests[:tests]
		return false
	}
	brs, sure, ok := l.branches(p, cands)
	if !ok || len(brs) < 2 {
		return undo()
	}
	m := l.join(p, brs, sure)
	if err := l.run(m); err != nil || l.deadEnds != ends || len(l.cases) > MaxCasesPerSource {
		return undo()
	}
	if !sure {
		// No guard holds: the runtime refuses the pseudo state here.
		l.deadEnds++
	}
	return true
}

// branches takes each candidate of p that can be reached, up to the first
// that is always taken (sure), and reports whether they can be joined.
func (l *lowering) branches(p *path, cands []edge) (brs []branch, sure, ok bool) {
	start := len(l.cases)
	for _, e := range cands {
		if e.event >= 0 {
			present, known := p.eventKnown(e.event)
			if !known {
				return nil, false, false
			}
			if !present {
				continue
			}
		}
		var g expr.Expr
		if e.t.Guard != nil {
			var err error
			if g, err = l.supported(p, e.t.Guard, e.t.Pos); err != nil || partial(g) {
				return nil, false, false
			}
		}
		q := p.clone()
		if err := l.takeTransition(q, e); err != nil || len(l.cases) != start || !joinable(p, q) {
			return nil, false, false
		}
		if len(brs) > 0 && !sameEnd(brs[0].q, q) {
			return nil, false, false
		}
		brs = append(brs, branch{guard: g, q: q})
		if g == nil {
			return brs, true, true
		}
	}
	return brs, false, true
}

// joinable reports whether the transition from p to q added only effects:
// no condition, event, priority, call or error case of its own.
func joinable(p, q *path) bool {
	return len(q.conds) == len(p.conds) && len(q.events) == len(p.events) &&
		len(q.priority) == len(p.priority) && len(q.calls) == len(p.calls) &&
		q.steps == p.steps && len(q.seen) == len(p.seen) && q.fired == p.fired
}

// sameEnd reports whether two branches end on the same runtime stack with
// the same value types and consumed events, so one continuation serves both.
func sameEnd(a, b *path) bool {
	return slices.Equal(a.frames, b.frames) && slices.Equal(a.types, b.types) && slices.Equal(a.consumed, b.consumed)
}

// join builds the path that continues every branch: the guards read at the
// choice point, each branch's effects on temporaries, then every variable a
// branch wrote set to the value of the first branch whose guard holds.
// Without a sure branch it requires that some guard holds.
func (l *lowering) join(p *path, brs []branch, sure bool) *path {
	at := len(p.effects)
	src := source(p.top().n.st.Pos)
	m := brs[0].q.clone()
	m.effects = slices.Clip(p.effects)
	picks := make([]expr.Expr, len(brs))
	var any expr.Expr
	for i, br := range brs {
		if br.guard == nil {
			continue
		}
		picks[i] = l.temp(m, br.guard, src)
		if any == nil {
			any = br.guard
		} else {
			any = &expr.Binary{Op: expr.Lor, X: any, Y: br.guard}
		}
	}
	if !sure {
		m.conds = append(m.conds, sts.Cond{After: at, Expr: any, Mode: sts.Holds, Src: src})
	}
	// Each branch's effects, renamed onto temporaries: vars maps a
	// variable to the temporary holding the branch's value of it.
	vals := make([]map[string]string, len(brs))
	for i, br := range brs {
		vars, temps := map[string]string{}, map[string]string{}
		for _, eff := range br.q.effects[at:] {
			v := rename(eff.Value, vars, temps)
			if eff.Temp != "" {
				temps[eff.Temp] = l.temp(m, v, eff.Src).(*expr.Ident).Name
				continue
			}
			if l.m.Vars[eff.Var].Type == model.Float {
				// The variable's store converts to a real; its temporary
				// must hold the same value.
				v = &expr.Binary{Op: expr.Add, X: v, Y: &expr.FloatLit{Value: 0}}
			}
			vars[l.m.Vars[eff.Var].Name] = l.temp(m, v, eff.Src).(*expr.Ident).Name
		}
		vals[i] = vars
	}
	last := len(brs) - 1
	for k, v := range l.m.Vars {
		if !slices.ContainsFunc(vals, func(vs map[string]string) bool { _, ok := vs[v.Name]; return ok }) {
			continue
		}
		value := branchValue(vals[last], v.Name)
		for i := last - 1; i >= 0; i-- {
			value = &expr.Conditional{Cond: picks[i], Then: branchValue(vals[i], v.Name), Else: value}
		}
		// Bound, so that the next choice reads the value as one constant.
		m.effects = append(m.effects, sts.Effect{Var: k, Value: l.temp(m, value, src), Src: src})
	}
	return m
}

// temp appends an effect storing v in a fresh temporary of m and returns
// the temporary. Its name cannot be written in a model.
func (l *lowering) temp(m *path, v expr.Expr, src sts.Source) expr.Expr {
	l.ntemp++
	name := fmt.Sprintf("share#%d", l.ntemp)
	m.effects = append(m.effects, sts.Effect{Var: -1, Temp: name, Value: v, Bind: true, Src: src})
	return &expr.Ident{Name: name}
}

// branchValue is a branch's value of the variable: its temporary, or the
// value at the choice point when the branch did not write it.
func branchValue(vars map[string]string, name string) expr.Expr {
	if t, ok := vars[name]; ok {
		return &expr.Ident{Name: t}
	}
	return &expr.Ident{Name: name}
}

// rename copies e with every name read replaced by the temporary that
// holds its value in the branch: a variable first (as the encoding
// resolves a name), else a temporary of the branch.
func rename(e expr.Expr, vars, temps map[string]string) expr.Expr {
	switch n := e.(type) {
	case *expr.Ident:
		if t, ok := vars[n.Name]; ok {
			return &expr.Ident{Loc: n.Loc, Name: t}
		}
		if t, ok := temps[n.Name]; ok {
			return &expr.Ident{Loc: n.Loc, Name: t}
		}
	case *expr.Unary:
		return &expr.Unary{Loc: n.Loc, Op: n.Op, X: rename(n.X, vars, temps)}
	case *expr.Binary:
		return &expr.Binary{Loc: n.Loc, Op: n.Op, X: rename(n.X, vars, temps), Y: rename(n.Y, vars, temps)}
	case *expr.Conditional:
		return &expr.Conditional{Loc: n.Loc, Cond: rename(n.Cond, vars, temps), Then: rename(n.Then, vars, temps), Else: rename(n.Else, vars, temps)}
	case *expr.FuncCall:
		return &expr.FuncCall{Loc: n.Loc, Fn: n.Fn, Arg: rename(n.Arg, vars, temps)}
	}
	return e
}
