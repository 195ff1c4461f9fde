package decide

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/sts"
)

// cases names the case of the lowered system (package sts) a cycle takes,
// for `cover`: case("LABEL") is a case of bmc's encoding, which the
// runtime does not know. It evaluates the cases of the cycle's source as
// the encoding defines them (guard, events, conditions read between
// effects, priorities over the earlier cases' antecedents) on the
// concrete values, takes the selected one, and checks that it lands
// where the runtime did: a disagreement leaves the query undecided.
type cases struct {
	sys    *sts.System
	vars   []int // per sts variable: the model variable's index
	events []int // per runtime event: the sts event's index
}

func newCases(sys *sts.System, varNames, eventPaths []string) (*cases, error) {
	c := &cases{sys: sys}
	for _, v := range sys.Vars {
		i := index(varNames, v.Name)
		if i < 0 {
			return nil, fmt.Errorf("variable %s of the lowering is not the runtime's", v.Name)
		}
		c.vars = append(c.vars, i)
	}
	for _, e := range eventPaths {
		c.events = append(c.events, sys.EventIndex(e))
	}
	return c, nil
}

func index(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// source is the sts location of a search location.
func (c *cases) source(loc *explicit.Location) int {
	switch {
	case loc.Kind == explicit.Ended:
		return sts.TerminatedID
	case !loc.Started:
		return sts.InitID
	}
	if l := c.sys.LocationByName(loc.State); l != nil {
		return l.ID
	}
	return -4 // no such location: no case
}

// label returns the label of the case the step from (state from, words
// src) with input in (runtime event indexes) to (location to, words dst)
// takes; an error when the cases do not decide it or disagree with the
// runtime.
func (c *cases) label(from *explicit.Location, src []int64, in []int, to *explicit.Location, dst []int64, real []bool) (string, error) {
	present := make([]bool, len(c.sys.Events))
	for _, e := range in {
		if k := c.events[e]; k >= 0 {
			present[k] = true
		}
	}
	pre := c.values(src, real)
	list := c.sys.Cases[c.source(from)]
	ante := make([]bool, len(list))
	for i := range list {
		cs := &list[i]
		ok, post, err := c.eval(cs, pre, present, ante)
		if err != nil {
			return "", fmt.Errorf("case %s: %w", cs.Label, err)
		}
		ante[i] = ok
		if !ok || cs.Kind == sts.Error || post == nil {
			continue
		}
		if c.source(to) != cs.Target && !(to.Kind == explicit.Running && !to.Started && cs.Target == sts.InitID) {
			return "", fmt.Errorf("case %s ends in %s, the runtime in %s", cs.Label, c.sys.LocationName(cs.Target), to)
		}
		want := c.values(dst, real)
		for k := range post {
			if cmp, ok := expr.Compare(post[k], want[k]); !ok || cmp != 0 {
				return "", fmt.Errorf("case %s leaves %s = %v, the runtime %v", cs.Label, c.sys.Vars[k].Name, post[k], want[k])
			}
		}
		return cs.Label, nil
	}
	return "", fmt.Errorf("no case of %s is selected", c.sys.LocationName(c.source(from)))
}

// values reads the words as the sts variables' values.
func (c *cases) values(words []int64, real []bool) []expr.Value {
	out := make([]expr.Value, len(c.vars))
	for k, i := range c.vars {
		out[k] = word(words[1+i], real[i])
	}
	return out
}

// eval returns whether case cs's antecedent holds and, when its effects
// are all defined, the values it leaves (nil otherwise). ante holds the
// antecedents of the earlier cases.
func (c *cases) eval(cs *sts.Case, pre []expr.Value, present, ante []bool) (bool, []expr.Value, error) {
	env := &caseEnv{sys: c.sys, cur: append([]expr.Value(nil), pre...), temps: map[string]expr.Value{}}
	if cs.Guard != nil {
		if v, err := expr.Eval(cs.Guard, env); err != nil || !v.Bool() {
			return false, nil, nil
		}
	}
	for _, lit := range cs.Events {
		if present[lit.Event] != lit.Present {
			return false, nil, nil
		}
	}
	for _, p := range cs.Priority {
		if p < len(ante) && ante[p] {
			return false, nil, nil
		}
	}
	next, defined := 0, true
	read := func(after int) (bool, error) {
		for ; next < len(cs.Conds) && cs.Conds[next].After <= after; next++ {
			if !defined {
				return false, fmt.Errorf("a condition reads the values of an undefined effect")
			}
			if !holdsMode(&cs.Conds[next], env) {
				return false, nil
			}
		}
		return true, nil
	}
	for k, eff := range cs.Effects {
		if ok, err := read(k); !ok || err != nil {
			return false, nil, err
		}
		v, err := expr.Eval(eff.Value, env)
		if err != nil {
			defined = false
			continue
		}
		switch {
		case eff.Temp != "":
			env.temps[eff.Temp] = v
		case c.sys.Vars[eff.Var].Sort == sts.Real:
			v, _ = expr.Convert(v, expr.Real)
			env.cur[eff.Var] = v
		default:
			env.cur[eff.Var] = v
		}
	}
	if ok, err := read(len(cs.Effects)); !ok || err != nil {
		return false, nil, err
	}
	if !defined {
		return true, nil, nil
	}
	return true, env.cur, nil
}

func holdsMode(cd *sts.Cond, env *caseEnv) bool {
	v, err := expr.Eval(cd.Expr, env)
	switch cd.Mode {
	case sts.Holds:
		return err == nil && v.Bool()
	case sts.Fails:
		return err == nil && !v.Bool()
	case sts.Defined:
		return err == nil
	}
	return err != nil
}

// caseEnv is the valuation of a case part-way through its effects.
type caseEnv struct {
	sys   *sts.System
	cur   []expr.Value
	temps map[string]expr.Value
}

func (e *caseEnv) Value(name string) (expr.Value, bool) {
	if k := e.sys.VarIndex(name); k >= 0 {
		return e.cur[k], true
	}
	v, ok := e.temps[name]
	return v, ok
}

func (e *caseEnv) Atom(c *expr.AtomCall) (expr.Value, error) {
	return expr.Value{}, fmt.Errorf("%s: %s(...) in a case", c.Loc.Start, c.Name)
}
