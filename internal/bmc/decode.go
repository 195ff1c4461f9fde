package bmc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/trace"
	"github.com/stateproof/stateproof/internal/z3"
)

// decodeModel projects the solver's current model onto the public trace
// (docs/architecture.md, equation 3). It runs no satisfiability check. A model that
// does not project cleanly (a state outside the domain, not exactly one
// selected case) is a hard error: a partial trace is never manufactured.
func (s *session) decodeModel(role string) (*trace.Trace, error) {
	p := s.p
	m, err := s.solver.Model()
	if err != nil {
		return nil, fmt.Errorf("bmc: reading the model: %w", err)
	}
	d := decoder{p: p, m: m}
	tr := &trace.Trace{Role: role}
	for i := 0; i <= p.n; i++ {
		f, err := d.frame(i)
		if err != nil {
			return nil, err
		}
		tr.Frames = append(tr.Frames, f)
	}
	for i := 0; i < p.n; i++ {
		st, err := d.step(i, tr)
		if err != nil {
			return nil, err
		}
		tr.Steps = append(tr.Steps, st)
	}
	tr.Initial = d.initial(&tr.Frames[0])
	return tr, nil
}

type decoder struct {
	p *problem
	m *z3.Model
}

func (d *decoder) int(t *z3.Term) (int64, error) {
	v, err := d.m.Eval(t, true)
	if err != nil {
		return 0, err
	}
	return v.Int64()
}

func (d *decoder) bool(t *z3.Term) (bool, error) {
	v, err := d.m.Eval(t, true)
	if err != nil {
		return false, err
	}
	return v.Bool()
}

func (d *decoder) value(t *z3.Term, sort sts.Sort) (any, error) {
	v, err := d.m.Eval(t, true)
	if err != nil {
		return nil, err
	}
	switch sort {
	case sts.Bool:
		return v.Bool()
	case sts.Real:
		return realValue(v)
	}
	x, err := v.Int()
	if err != nil {
		return nil, err
	}
	return trace.Integer(x), nil
}

func (d *decoder) frame(i int) (trace.Frame, error) {
	p := d.p
	id, err := d.int(p.enc.States[i])
	if err != nil {
		return trace.Frame{}, fmt.Errorf("bmc: decoding frame %d: %w", i, err)
	}
	f := trace.Frame{Index: i, StateID: int(id)}
	switch {
	case id == sts.InitID:
		f.Sentinel = "init"
	case id == sts.TerminatedID:
		f.Sentinel, f.Terminated = "terminated", true
	case p.sys.Location(int(id)) != nil:
		l := p.sys.Location(int(id))
		f.State, f.Terminated = l.Name, l.Terminal
	default:
		return f, fmt.Errorf("bmc: decoding frame %d: state id %d is outside the domain", i, id)
	}
	for k, v := range p.sys.Vars {
		val, err := d.value(p.enc.Vars[i][k], v.Sort)
		if err != nil {
			return f, fmt.Errorf("bmc: decoding %s at frame %d: %w", v.Name, i, err)
		}
		f.Vars = append(f.Vars, trace.Var{Name: v.Name, Value: val})
	}
	return f, nil
}

var progressOf = map[sts.CaseKind]string{
	sts.Transition: "transition", sts.Fallback: "fallback_gamma", sts.Initial: "initial",
	sts.Absorb: "terminated_absorb", sts.Delta: "semantic_delta",
}

func (d *decoder) step(i int, tr *trace.Trace) (trace.Step, error) {
	p := d.p
	var chosen []int
	for k, sel := range p.enc.Sels[i] {
		on, err := d.bool(sel.Term)
		if err != nil {
			return trace.Step{}, err
		}
		if on {
			chosen = append(chosen, k)
		}
	}
	if len(chosen) != 1 {
		return trace.Step{}, fmt.Errorf("bmc: decoding step %d: %d cases selected, want exactly one", i, len(chosen))
	}
	sel := &p.enc.Sels[i][chosen[0]]
	c := sel.Case
	delta, err := d.bool(p.enc.Delta[i])
	if err != nil {
		return trace.Step{}, err
	}
	gamma, err := d.bool(p.enc.Gamma[i])
	if err != nil {
		return trace.Step{}, err
	}
	st := trace.Step{
		Index: i, SourceFrame: i, TargetFrame: i + 1,
		CaseLabel: c.Label, CaseKind: c.Kind.String(), Progress: progressOf[c.Kind],
		SourceState: p.sys.LocationName(c.Source), TargetState: p.sys.LocationName(c.Target),
		Delta: delta, Gamma: gamma, Origin: c.Origin,
		Consumed: []string{}, Unconsumed: []string{}, InputEvents: []trace.InputEvent{}, EventReads: []trace.InputEvent{},
	}
	if err := d.events(i, c, &st); err != nil {
		return st, err
	}
	for k, call := range c.Calls {
		// The values the call sees, part-way through the case's effects.
		snap := make([]trace.Var, len(p.sys.Vars))
		for j, v := range p.sys.Vars {
			val, err := d.value(sel.Snapshots[k][j], v.Sort)
			if err != nil {
				return st, fmt.Errorf("bmc: decoding the snapshot of call %d at step %d: %w", k, i, err)
			}
			snap[j] = trace.Var{Name: v.Name, Value: val}
		}
		st.AbstractCalls = append(st.AbstractCalls, trace.Call{
			Ordinal: k, ActionName: call.Action, Stage: call.Stage, Role: call.Role,
			State: call.State, ActiveLeaf: call.ActiveLeaf, NamedRef: call.NamedRef, Snapshot: snap,
		})
	}
	return st, nil
}

// events sorts the step's event values into replay inputs (true, and
// needed by the case, an assumption or the property) and debugging reads.
func (d *decoder) events(i int, c *sts.Case, st *trace.Step) error {
	p := d.p
	need := map[int]bool{}
	neg := map[int]bool{}
	for _, lit := range c.Events {
		if lit.Present {
			need[lit.Event] = true
		} else {
			neg[lit.Event] = true
		}
	}
	assumed := map[int]bool{}
	for _, a := range p.q.Assumes {
		if a.Kind == query.AssumeEvent && (a.Steps.All || (i >= a.Steps.Lo && i <= a.Steps.Hi)) {
			assumed[p.sys.EventIndex(a.Event.Name)] = a.Value
		}
	}
	for ev, e := range p.sys.Events {
		on, err := d.bool(p.enc.Events[i][ev])
		if err != nil {
			return err
		}
		took := false // a fair event the step takes (fairReads)
		if t := p.fairReads[[2]int{i, ev}]; on && t != nil {
			if took, err = d.bool(t); err != nil {
				return err
			}
		}
		val, isAssumed := assumed[ev]
		switch {
		case on && need[ev]:
			st.InputEvents = append(st.InputEvents, trace.InputEvent{Path: e.Name, Reason: "case_positive", ModelValue: true})
		case on && isAssumed && val:
			st.InputEvents = append(st.InputEvents, trace.InputEvent{Path: e.Name, Reason: "explicit_true_assumption", ModelValue: true})
		case on && (p.eventSupport[[2]int{i, ev}] || took):
			st.InputEvents = append(st.InputEvents, trace.InputEvent{Path: e.Name, Reason: "property_support", ModelValue: true})
		case neg[ev]:
			st.EventReads = append(st.EventReads, trace.InputEvent{Path: e.Name, Reason: "negative_case_read", ModelValue: on})
		case isAssumed && !val:
			st.EventReads = append(st.EventReads, trace.InputEvent{Path: e.Name, Reason: "explicit_false_assumption", ModelValue: on})
		}
	}
	inputs := map[string]bool{}
	for _, e := range st.InputEvents {
		inputs[e.Path] = true
	}
	consumed := map[string]bool{}
	for _, ev := range c.Consumes {
		name := p.sys.Events[ev].Name
		if inputs[name] {
			st.Consumed = append(st.Consumed, name)
			consumed[name] = true
		}
	}
	for _, e := range st.InputEvents {
		if !consumed[e.Path] {
			st.Unconsumed = append(st.Unconsumed, e.Path)
		}
	}
	return nil
}

func (d *decoder) initial(f *trace.Frame) trace.Initial {
	in := trace.Initial{Mode: "cold", Vars: f.Vars}
	if q := d.p.q.Init; q != nil {
		in.Mode = q.Mode.String()
	}
	in.State, in.Sentinel = f.State, f.Sentinel
	return in
}

// realValue is a real model value as the nearest float. A non-linear
// model (a sqrt's result) can be an irrational algebraic number, which has
// no rational form: its decimal expansion to 20 places is read instead,
// which is the nearest float or its neighbour, far inside the replay's
// tolerance (trace.FloatTolerance).
func realValue(v *z3.Term) (float64, error) {
	if r, err := v.Rat(); err == nil {
		f, _ := r.Float64()
		return f, nil
	}
	s, err := v.DecimalString(20)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "?"), 64)
	if err != nil {
		return 0, fmt.Errorf("bmc: reading the algebraic number %s: %w", s, err)
	}
	return f, nil
}
