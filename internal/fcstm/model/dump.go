package model

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
)

// Dump renders the constructed model as indented text, one line per
// variable, state, transition and action: the form construction tests
// compare against golden files, and a way to see what combo expansion and
// forced-transition injection produced.
func Dump(m *Model) string {
	var b strings.Builder
	for _, v := range m.Vars {
		typ := "int"
		if v.Type == Float {
			typ = "float"
		}
		init := v.Init.String()
		if v.InitErr != nil {
			init = "<" + v.InitErr.Code + ">"
		}
		fmt.Fprintf(&b, "var %s %s = %s\n", typ, v.Name, init)
	}
	dumpState(&b, m.Root, 0)
	for _, e := range m.Events {
		fmt.Fprintf(&b, "event %s", e.Path)
		if e.Display != "" {
			fmt.Fprintf(&b, " named %q", e.Display)
		}
		b.WriteByte('\n')
	}
	for _, w := range m.Warnings {
		fmt.Fprintf(&b, "warning %d:%d %s %s\n", w.Pos.Line, w.Pos.Col, w.Code, w.Message)
	}
	return b.String()
}

func dumpState(b *strings.Builder, s *State, depth int) {
	ind := strings.Repeat("  ", depth)
	kind := "state"
	if s.Pseudo {
		kind = "pseudo"
	}
	fmt.Fprintf(b, "%s%s %s #%d", ind, kind, s.Path, s.ID)
	if s.Display != "" {
		fmt.Fprintf(b, " named %q", s.Display)
	}
	b.WriteByte('\n')
	for _, a := range allActions(s) {
		fmt.Fprintf(b, "%s  %s\n", ind, dumpAction(a))
	}
	for _, t := range s.Transitions {
		fmt.Fprintf(b, "%s  %s\n", ind, dumpTransition(t))
	}
	for _, c := range s.Children {
		dumpState(b, c, depth+1)
	}
}

func dumpAction(a *Action) string {
	s := string(a.Role)
	if a.Name != "" {
		s += " " + a.Name
	}
	switch a.Kind {
	case Abstract:
		s += " abstract"
	case Ref:
		target := "<unresolved>"
		if a.Target != nil {
			target = a.Target.Path
		}
		s += " ref " + a.RefPath + " => " + target
	default:
		s += " " + dumpStmts(a.Ops)
	}
	return s
}

func dumpTransition(t *Transition) string {
	name := func(s *State) string {
		if s == nil {
			return "[*]"
		}
		return s.Name
	}
	s := name(t.From) + " -> " + name(t.To)
	if t.Event != nil {
		s += " on " + t.Event.Path
	}
	if t.Guard != nil {
		s += " if [" + expr.Format(t.Guard) + "]"
	}
	if t.Effect != nil {
		s += " effect " + dumpStmts(t.Effect)
	}
	if t.Forced {
		s += " (forced)"
	}
	if t.Origin != nil {
		s += fmt.Sprintf(" (from line %d)", t.Origin.Pos.Line)
	}
	return s
}

func dumpStmts(ss []Stmt) string {
	var parts []string
	for _, s := range ss {
		switch s := s.(type) {
		case *Assign:
			p := s.Name + " = " + expr.Format(s.Value)
			if s.Temp {
				p = "temp " + p
			}
			parts = append(parts, p)
		case *If:
			p := ""
			for i, br := range s.Branches {
				if i > 0 {
					p += " else "
				}
				p += "if [" + expr.Format(br.Cond) + "] " + dumpStmts(br.Body)
			}
			if s.Else != nil {
				p += " else " + dumpStmts(s.Else)
			}
			parts = append(parts, p)
		}
	}
	return "{" + strings.Join(parts, "; ") + "}"
}
