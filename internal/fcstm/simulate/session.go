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
	// Forget keeps no cycle in the report: each is returned by Step and
	// then dropped, so that a run of any length needs constant memory.
	Forget bool
}

// Session is a simulation in progress.
type Session struct {
	start  func(Options) (engine, []string, error) // starts the model again (Restart)
	opts   Options
	rt     engine
	names  []string
	prev   []expr.Value
	report Report
	forget bool
	count  int  // cycles run
	failed bool // some cycle raised
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
	return startWith(name, opts, func(opts Options) (engine, []string, error) {
		rt, err := runtime.New(m, runtime.Options{InitialState: opts.InitialState, InitialVars: opts.InitialVars, Handlers: opts.Handlers, ErrorMode: opts.ErrorMode})
		if err != nil {
			return nil, nil, err
		}
		var names []string
		for _, v := range m.Vars {
			names = append(names, v.Name)
		}
		return fcstmEngine{rt}, names, nil
	})
}

// startWith starts a session on the engine start makes.
func startWith(name string, opts Options, start func(Options) (engine, []string, error)) (*Session, error) {
	s := &Session{start: start, opts: opts, report: Report{Schema: Schema, Model: name}, forget: opts.Forget}
	rt, names, err := start(opts)
	if err != nil {
		s.report.Error = runtimeError(err)
		return s, err
	}
	s.rt, s.names = rt, names
	s.prev = rt.Values()
	s.report.Initial = &Snapshot{State: s.state(), Ended: rt.Ended(), Vars: s.vars(s.prev)}
	return s, nil
}

// Restart starts the session again: cold when state is "" and vars nil,
// else hot at state with vars (all of them when state is given), without
// enter actions. The report starts over. On an error the session is
// unchanged.
func (s *Session) Restart(state string, vars map[string]expr.Value) error {
	opts := s.opts
	opts.InitialState, opts.InitialVars = state, vars
	next, err := startWith(s.report.Model, opts, s.start)
	if err != nil {
		return err
	}
	*s = *next
	return nil
}

// Runtime returns the session's FCSTM runtime (nil when Start failed or
// the model is a JSON model).
func (s *Session) Runtime() *runtime.Runtime {
	if e, ok := s.rt.(fcstmEngine); ok {
		return e.Runtime
	}
	return nil
}

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
	s.count++
	cr := CycleReport{Index: s.count, Events: nonNil(c.Events), Consumed: nonNil(c.Consumed),
		Unconsumed: nonNil(c.Unconsumed), Actions: []ActionReport{}, AbstractCalls: []CallReport{}}
	if len(cr.Events) == 0 && len(events) > 0 && err != nil {
		// Not resolved (an unknown event): the error names it, and the
		// events are reported as given. After the end the runtime reports
		// canonical paths itself, so a raw input is never unconsumed.
		cr.Events = events
	}
	if err != nil {
		cr.Error = runtimeError(err)
		s.failed = true
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
	if s.forget {
		return &cr
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
func (s *Session) Failed() bool { return s.failed }

// Cycles is the number of cycles run.
func (s *Session) Cycles() int { return s.count }

// Stop records that the run stopped at a cap of n cycles with input left:
// the rest was not run, so the run answers nothing about it.
func (s *Session) Stop(n int) {
	s.report.Stopped = &StopReport{Reason: "max-cycles", Limit: n,
		Message: fmt.Sprintf("stopped after %d cycles (--max-cycles); the rest of the input was not run", n)}
}

// DefaultMaxCycles is the default cap on the cycles of one run: a report
// keeps every cycle, and this many is far beyond what a person reads.
const DefaultMaxCycles = 100000

// Feed runs the cycles of src in order, at most max of them (max <= 0:
// DefaultMaxCycles), calling each (when not nil) after every cycle. When
// src has a cycle beyond the cap the run stops and the report says so
// (Stopped). The error is the source's: the cycles before it have run.
func (s *Session) Feed(src Source, max int, each func(*CycleReport)) error {
	if max <= 0 {
		max = DefaultMaxCycles
	}
	for {
		evs, ok, err := src.Next()
		if err != nil || !ok {
			return err
		}
		if s.count >= max {
			s.Stop(max)
			return nil
		}
		c := s.Step(evs)
		if each != nil {
			each(c)
		}
	}
}

// Run simulates the cycles in order (at most DefaultMaxCycles) and
// returns the report; the error is the start failure, if any (cycle
// errors are in the report).
func Run(m *model.Model, name string, cycles [][]string, opts Options) (*Report, error) {
	s, err := Start(m, name, opts)
	if err != nil {
		return s.Report(), err
	}
	_ = s.Feed(&SliceSource{Cycles: cycles}, DefaultMaxCycles, nil) // a slice never fails
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
	if a.Type() == expr.Bool { // JSON models' booleans are not ordered
		return a.Bool() == b.Bool()
	}
	c, ok := expr.Compare(a, b)
	return ok && c == 0
}
