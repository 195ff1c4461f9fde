package show

import (
	"unicode"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// Machine is what a presentation needs from a front end: states in model
// order, transitions, and the narrative (any part of it may be missing).
type Machine struct {
	States      []string
	Terminal    map[string]bool
	Transitions []Transition
	StateText   map[string]string
	EventText   map[string]string
	Scenario    map[[2]string]string // (from, event) -> scenario
}

// Transition is one transition; Guard is "" for none.
type Transition struct {
	From, Event, To, Guard string
}

// FromJSON takes the states, transitions and narrative of a JSON model.
func FromJSON(m *jsonmodel.Model) *Machine {
	mc := &Machine{Terminal: map[string]bool{}, StateText: map[string]string{}, EventText: map[string]string{}, Scenario: map[[2]string]string{}}
	for _, s := range m.States {
		mc.States = append(mc.States, s.ID)
		mc.Terminal[s.ID] = s.Terminal
	}
	for _, t := range m.Transitions {
		tr := Transition{From: t.From, Event: t.Event, To: t.To}
		if t.Guard != nil {
			tr.Guard = expr.Format(jsonmodel.GuardExpr(t.Guard, m))
		}
		mc.Transitions = append(mc.Transitions, tr)
	}
	if n := m.Narrative; n != nil {
		for k, v := range n.States {
			mc.StateText[k] = v
		}
		for k, v := range n.Events {
			mc.EventText[k] = v
		}
		for _, s := range n.Scenarios {
			mc.Scenario[[2]string{s.From, s.Event}] = s.Text
		}
	}
	return mc
}

// chinese reports whether the narrative is written in Chinese: whether
// any of its texts holds a Han character.
func (mc *Machine) chinese() bool {
	for _, texts := range []map[string]string{mc.StateText, mc.EventText} {
		for _, t := range texts {
			if hasHan(t) {
				return true
			}
		}
	}
	for _, t := range mc.Scenario {
		if hasHan(t) {
			return true
		}
	}
	return false
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}
