package diagram

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// FromJSON draws a schema-v1 model: one state per declared state (terminal
// states final), an initial edge to Init, and one edge per transition
// labelled "event [guard] / updates".
func FromJSON(m *jsonmodel.Model, title string) *Graph {
	g := &Graph{Title: title}
	for _, s := range m.States {
		st := &State{ID: s.ID, Final: s.Terminal}
		if len(s.OnEntry) > 0 {
			st.Actions = append(st.Actions, "entry / "+strings.Join(s.OnEntry, ", "))
		}
		if len(s.OnExit) > 0 {
			st.Actions = append(st.Actions, "exit / "+strings.Join(s.OnExit, ", "))
		}
		if s.MaxTicks != nil {
			st.Actions = append(st.Actions, fmt.Sprintf("deadline %d ticks", *s.MaxTicks))
		}
		g.States = append(g.States, st)
	}
	g.Edges = append(g.Edges, Edge{To: m.Init, Source: -1})
	for _, t := range m.Transitions {
		e := Edge{From: t.From, To: t.To, Event: t.Event, Source: t.Index}
		if t.Guard != nil {
			e.Guard = expr.Format(jsonmodel.GuardExpr(t.Guard, m))
		}
		e.Label = edgeLabel(t.Event, e.Guard, updatesText(t.Updates))
		g.Edges = append(g.Edges, e)
	}
	return g
}

// edgeLabel joins the parts of a transition label the way UML writes them.
func edgeLabel(event, guard, effect string) string {
	parts := []string{}
	if event != "" {
		parts = append(parts, event)
	}
	if guard != "" {
		parts = append(parts, "["+guard+"]")
	}
	if effect != "" {
		parts = append(parts, "/ "+effect)
	}
	return strings.Join(parts, " ")
}

func updatesText(us []jsonmodel.Update) string {
	parts := make([]string, len(us))
	for i, u := range us {
		switch u.Op {
		case "inc":
			parts[i] = fmt.Sprintf("%s += %d", u.Variable, u.Value)
		case "dec":
			parts[i] = fmt.Sprintf("%s -= %d", u.Variable, u.Value)
		default:
			parts[i] = fmt.Sprintf("%s = %d", u.Variable, u.Value)
		}
	}
	return strings.Join(parts, "; ")
}
