package simulate

import (
	"errors"
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

// Options configures a simulation: an optional hot start and the
// handlers of abstract actions (the report records every named abstract
// call whether or not a handler is registered).
type Options struct {
	InitialState string
	InitialVars  map[string]expr.Value
	Handlers     map[string]runtime.Handler
	ErrorMode    runtime.ErrorMode
}

// Session is a simulation in progress.
type Session struct {
	rt     *runtime.Runtime
	names  []string
	prev   []expr.Value
	report Report
}

// LoadError converts a model load failure (model.Load's error) into the
// report's error: "parse" for a syntax or read error, "validation" for
// construction errors (the first one located; the message counts the rest).
func LoadError(err error) *ErrorReport {
	var list ast.ErrorList
	var one *ast.Error
	switch {
	case errors.As(err, &list) && len(list) > 0:
		e := list[0]
		msg := fmt.Sprintf("%s [%s]", e.Msg, e.Code)
		if len(list) > 1 {
			msg += fmt.Sprintf(" (and %d more errors)", len(list)-1)
		}
		return &ErrorReport{Class: "validation", Message: msg, File: e.File, Line: e.Pos.Line, Col: e.Pos.Col}
	case errors.As(err, &one):
		return &ErrorReport{Class: "parse", Message: fmt.Sprintf("%s [%s]", one.Msg, one.Code), File: one.File, Line: one.Pos.Line, Col: one.Pos.Col}
	}
	return &ErrorReport{Class: "parse", Message: err.Error()}
}

// runtimeError converts a runtime error into the report's error.
func runtimeError(err error) *ErrorReport {
	var e *runtime.Error
	if errors.As(err, &e) {
		return &ErrorReport{Class: string(e.Class), Message: e.Message, File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col}
	}
	return &ErrorReport{Class: "internal", Message: err.Error()}
}

// Start prepares a simulation of m; name is the model's name in the
// report. The error, when the runtime cannot start (a bad initial state or
// variable, an initialiser without a value), is also the report's Error.
func Start(m *model.Model, name string, opts Options) (*Session, error) {
	s := &Session{report: Report{Schema: Schema, Model: name}}
	rt, err := runtime.New(m, runtime.Options{InitialState: opts.InitialState, InitialVars: opts.InitialVars, Handlers: opts.Handlers, ErrorMode: opts.ErrorMode})
	if err != nil {
		s.report.Error = runtimeError(err)
		return s, err
	}
	s.rt = rt
	for _, v := range m.Vars {
		s.names = append(s.names, v.Name)
	}
	s.prev = rt.Values()
	s.report.Initial = &Snapshot{State: s.state(), Ended: rt.Ended(), Vars: s.vars(s.prev)}
	return s, nil
}

// Runtime returns the session's runtime (nil when Start failed).
func (s *Session) Runtime() *runtime.Runtime { return s.rt }

// Report returns the report so far.
func (s *Session) Report() *Report { return &s.report }

func (s *Session) state() *string {
	if s.rt.Ended() {
		return nil
	}
	st := s.rt.State()
	return &st
}

func (s *Session) vars(vals []expr.Value) Vars { return Vars{Names: s.names, Values: vals} }

// Step runs one cycle and appends its report. A cycle that raises is
// reported with its error; the simulation can go on.
func (s *Session) Step(events []string) *CycleReport {
	c, err := s.rt.Cycle(events)
	cr := CycleReport{Index: len(s.report.Cycles) + 1, Events: nonNil(c.Events), Consumed: nonNil(c.Consumed),
		Unconsumed: nonNil(c.Unconsumed), Actions: []ActionReport{}, AbstractCalls: []CallReport{}}
	if len(cr.Events) == 0 && len(events) > 0 && err != nil {
		// Not resolved (an unknown event): the error names it, and the
		// events are reported as given. After the end the runtime reports
		// canonical paths itself, so a raw input is never unconsumed.
		cr.Events = events
	}
	if err != nil {
		cr.Error = runtimeError(err)
	}
	cr.Delta = c.Delta
	cr.State, cr.Ended = s.state(), s.rt.Ended()
	now := s.rt.Values()
	cr.Vars = s.vars(now)
	for i := range now {
		if !same(now[i], s.prev[i]) {
			cr.changed = append(cr.changed, s.names[i])
		}
	}
	s.prev = now
	for _, a := range c.Actions {
		cr.Actions = append(cr.Actions, ActionReport{a})
	}
	for _, call := range c.Calls {
		cr.AbstractCalls = append(cr.AbstractCalls, s.callReport(call))
	}
	s.report.Cycles = append(s.report.Cycles, cr)
	return &s.report.Cycles[len(s.report.Cycles)-1]
}

func (s *Session) callReport(c runtime.AbstractCall) CallReport {
	vals := make([]expr.Value, len(s.names))
	for i, n := range s.names {
		vals[i] = c.Vars[n]
	}
	cr := CallReport{Action: c.Action, Stage: string(c.Stage), State: c.State, ActiveLeaf: c.ActiveLeaf, Vars: s.vars(vals)}
	if c.NamedRef != "" {
		ref := c.NamedRef
		cr.NamedRef = &ref
	}
	return cr
}

// Failed reports whether some cycle raised.
func (s *Session) Failed() bool {
	for _, c := range s.report.Cycles {
		if c.Error != nil {
			return true
		}
	}
	return false
}

// Run simulates the cycles in order and returns the report; the error is
// the start failure, if any (cycle errors are in the report).
func Run(m *model.Model, name string, cycles [][]string, opts Options) (*Report, error) {
	s, err := Start(m, name, opts)
	if err != nil {
		return s.Report(), err
	}
	for _, evs := range cycles {
		s.Step(evs)
	}
	return s.Report(), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// same compares two values exactly (type and number).
func same(a, b expr.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	c, ok := expr.Compare(a, b)
	return ok && c == 0
}
