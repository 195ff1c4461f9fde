package simulate

import (
	"fmt"
	"io"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

// TextWriter renders a simulation for a person, cycle by cycle: where the
// machine went, which variables changed, the actions that ran and the
// abstract calls made.
type TextWriter struct {
	w    io.Writer
	prev string // the state before the next cycle
	vars Vars
}

// NewTextWriter returns a TextWriter on w.
func NewTextWriter(w io.Writer) *TextWriter { return &TextWriter{w: w} }

// Start writes the model and its initial configuration, or the error that
// prevents it from running.
func (t *TextWriter) Start(r *Report) {
	if r.Error != nil {
		fmt.Fprintf(t.w, "%s: cannot simulate: %s\n", r.Model, formatError(r.Error))
		return
	}
	t.prev, t.vars = stateText(r.Initial.State), r.Initial.Vars
	fmt.Fprintf(t.w, "%s: starts at %s", r.Model, t.prev)
	if len(t.vars.Names) > 0 {
		fmt.Fprintf(t.w, " with %s", assignments(t.vars, t.vars.Names))
	}
	fmt.Fprintln(t.w)
}

// Report writes a whole report.
func (t *TextWriter) Report(r *Report) {
	t.Start(r)
	for i := range r.Cycles {
		t.Cycle(&r.Cycles[i])
	}
	t.End(r)
}

// End writes what ended the run early, if anything did.
func (t *TextWriter) End(r *Report) {
	if r.Stopped != nil {
		fmt.Fprintf(t.w, "\nnot decided: %s\n", r.Stopped.Message)
	}
}

// Cycle writes one cycle.
func (t *TextWriter) Cycle(c *CycleReport) {
	events := "no event"
	if len(c.Events) > 0 {
		events = strings.Join(c.Events, ", ")
	}
	fmt.Fprintf(t.w, "\ncycle %d  [%s]\n", c.Index, events)
	now := stateText(c.State)
	switch {
	case c.Error != nil:
		fmt.Fprintf(t.w, "  ✗ %s\n  nothing changed: still at %s\n", formatError(c.Error), now)
	case c.Delta:
		fmt.Fprintf(t.w, "  Δ no progress: no path reaches a stable state; still at %s, nothing changed\n", now)
	case c.Ended && len(c.Actions) == 0 && now == t.prev:
		fmt.Fprintln(t.w, "  the machine has ended; nothing happens")
	case c.Ended:
		fmt.Fprintf(t.w, "  %s → ended\n", t.prev)
	case now == t.prev:
		fmt.Fprintf(t.w, "  stays at %s\n", now)
	default:
		fmt.Fprintf(t.w, "  %s → %s\n", t.prev, now)
	}
	if len(c.changed) > 0 {
		var parts []string
		for _, name := range c.changed {
			old, _ := t.vars.Get(name)
			v, _ := c.Vars.Get(name)
			parts = append(parts, fmt.Sprintf("%s %s → %s", name, valueText(old), valueText(v)))
		}
		fmt.Fprintf(t.w, "  changed: %s\n", strings.Join(parts, ", "))
	}
	for _, a := range c.Actions {
		fmt.Fprintf(t.w, "    %s\n", actionText(a.Action))
	}
	for _, call := range c.AbstractCalls {
		fmt.Fprintf(t.w, "    ⇒ call %s (%s at %s)\n", call.Action, call.Stage, call.State)
	}
	if len(c.Unconsumed) > 0 && c.Error == nil && !c.Delta {
		fmt.Fprintf(t.w, "  unused: %s\n", strings.Join(c.Unconsumed, ", "))
	}
	t.prev, t.vars = now, c.Vars
}

func stateText(s *string) string {
	if s == nil {
		return "(ended)"
	}
	return *s
}

func formatError(e *ErrorReport) string {
	loc := ""
	if e.Line > 0 {
		loc = fmt.Sprintf(" at %s:%d:%d", e.File, e.Line, e.Col)
	}
	return fmt.Sprintf("%s error%s: %s", e.Class, loc, e.Message)
}

func assignments(v Vars, names []string) string {
	var parts []string
	for _, n := range names {
		val, _ := v.Get(n)
		parts = append(parts, n+" = "+valueText(val))
	}
	return strings.Join(parts, ", ")
}

func valueText(v expr.Value) string { return strings.Trim(JSONNumber(v), `"`) }

func actionText(a runtime.Action) string {
	if a.Role == runtime.RoleEffect {
		return fmt.Sprintf("%-13s %s: %s → %s", "effect", a.State, a.From, a.To)
	}
	s := fmt.Sprintf("%-13s %s", a.Role, a.State)
	if a.Name != "" {
		s += " " + a.Name
	}
	if a.Leaf != "" {
		s += " (for " + a.Leaf + ")"
	}
	if a.Ref != "" {
		s += " = ref " + a.Ref
	}
	if a.Abstract {
		s += " [abstract]"
	}
	return s
}
