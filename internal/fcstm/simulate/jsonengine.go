package simulate

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	jsonrt "github.com/stateproof/stateproof/internal/runtime"
)

// StartJSON prepares a simulation of a JSON model (docs/models.md) with
// the same report as an FCSTM model's. A cycle takes at most one event,
// since a JSON model steps on one event at a time; the actions are the
// exit actions of the state left, the transition, and the entry actions
// of the state entered. A JSON model never ends: terminal states are
// reported by their id.
func StartJSON(m *jsonmodel.Model, name string, opts Options) (*Session, error) {
	mc := jsonrt.Compile(m)
	var names []string
	for _, v := range mc.Vars {
		names = append(names, v.Name)
	}
	return startWith(name, opts, func(opts Options) (engine, []string, error) {
		e := &jsonEngine{mc: mc, r: mc.Initial(make([]int64, mc.Width()))}
		if err := e.hotStart(opts.InitialState, opts.InitialVars); err != nil {
			return nil, nil, err
		}
		return e, names, nil
	})
}

type jsonEngine struct {
	mc  *jsonrt.Machine
	r   []int64 // the current runtime: state index, then the variables
	buf jsonrt.StepBuffer
}

func initError(format string, args ...any) error {
	return &runtime.Error{Class: runtime.ClassInit, Message: fmt.Sprintf(format, args...)}
}

// hotStart sets the state and variables given: a state needs every
// variable; without one the given variables replace their initial values.
func (e *jsonEngine) hotStart(state string, vars map[string]expr.Value) error {
	if state != "" {
		s := e.mc.StateIndex(state)
		if s < 0 {
			return initError("initial_state %s: no such state", state)
		}
		e.r[0] = int64(s)
		var missing []string
		for _, v := range e.mc.Vars {
			if _, ok := vars[v.Name]; !ok {
				missing = append(missing, v.Name)
			}
		}
		if len(missing) > 0 {
			return initError("a hot start needs every variable; initial_vars lacks %s", strings.Join(missing, ", "))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(vars)) { // the same one named on every run
		val := vars[name]
		i := e.mc.VarIndex(name)
		if i < 0 {
			return initError("initial_vars['%s']: the model has no variable %s", name, name)
		}
		switch kind := e.mc.Vars[i].Kind; {
		case kind == jsonmodel.Boolean && val.Type() == expr.Bool:
			e.r[1+i] = 0
			if val.Bool() {
				e.r[1+i] = 1
			}
		case kind != jsonmodel.Boolean && val.Type() == expr.Int:
			e.r[1+i] = e.mc.Word(val.BigInt())
		default:
			return initError("initial_vars['%s']: variable '%s' is %s, cannot assign %s", name, name, kind, val)
		}
	}
	return nil
}

func (e *jsonEngine) Cycle(events []string) (*runtime.Cycle, error) {
	c := &runtime.Cycle{Events: events, State: e.State()}
	switch {
	case len(events) == 0:
		return c, nil
	case len(events) > 1:
		return c, &runtime.Error{Class: runtime.ClassEvent, Message: fmt.Sprintf("a JSON model takes one event per cycle, got %d (%s)", len(events), strings.Join(events, ", "))}
	}
	ev := e.mc.EventIndex(events[0])
	if ev < 0 {
		return c, &runtime.Error{Class: runtime.ClassEvent, Message: fmt.Sprintf("unknown event %q: the model's events are %s", events[0], strings.Join(e.mc.Events, ", "))}
	}
	outs := e.mc.Step(e.r, ev, &e.buf)
	switch len(outs) {
	case 0:
		c.Unconsumed = events // no transition on it here
		return c, nil
	case 1:
	default:
		var ts []string
		for _, o := range outs {
			ts = append(ts, fmt.Sprintf("transitions[%d]", o.Label))
		}
		return c, &runtime.Error{Class: runtime.ClassEvent, Message: fmt.Sprintf("%s is nondeterministic in %s: %s fire with different results (S4); the simulation cannot choose", events[0], c.State, strings.Join(ts, ", "))}
	}
	t := e.mc.Transition(outs[0].Label)
	from, to := e.mc.Model.States[e.r[0]], e.mc.Model.States[outs[0].Next[0]]
	for _, a := range from.OnExit {
		c.Actions = append(c.Actions, runtime.Action{Role: model.RoleExit, State: from.ID, Name: a})
	}
	c.Actions = append(c.Actions, runtime.Action{Role: runtime.RoleEffect, State: from.ID, From: t.From, To: t.To})
	for _, a := range to.OnEntry {
		c.Actions = append(c.Actions, runtime.Action{Role: model.RoleEnter, State: to.ID, Name: a})
	}
	copy(e.r, outs[0].Next)
	c.Consumed, c.State = events, to.ID
	return c, nil
}

func (e *jsonEngine) State() string { return e.mc.States[e.r[0]] }

func (e *jsonEngine) Ended() bool { return false }

func (e *jsonEngine) Values() []expr.Value {
	out := make([]expr.Value, len(e.mc.Vars))
	for i, v := range e.mc.Vars {
		w := e.r[1+i]
		if v.Kind == jsonmodel.Boolean {
			out[i] = expr.BoolVal(w != 0)
			continue
		}
		out[i] = expr.BigIntVal(new(big.Int).Set(e.mc.Int(w)))
	}
	return out
}

func (e *jsonEngine) EventPaths() []string { return e.mc.Events }

func (e *jsonEngine) Root() string { return "" }
