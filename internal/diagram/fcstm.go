package diagram

import (
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// FromFCSTM draws a constructed FCSTM machine: the root and every composite
// as a cluster around its children, pseudo states marked, each composite's
// initial ([*] -> X) and exit (X -> [*]) transitions on its own markers,
// forced transitions flagged, and the actions of each state listed on it.
// Generated combo states are drawn like the pseudo states they are.
func FromFCSTM(m *model.Model, title string) *Graph {
	g := &Graph{Title: title}
	if m.Root == nil {
		return g
	}
	g.States = []*State{fcstmState(m.Root, &g.Edges)}
	g.Edges = append([]Edge{{To: m.Root.Path, Source: -1}}, g.Edges...)
	return g
}

func fcstmState(s *model.State, edges *[]Edge) *State {
	st := &State{ID: s.Path, Label: s.Name, Pseudo: s.Pseudo || s.Combo}
	if s.Display != "" {
		st.Label = s.Name + " (" + s.Display + ")"
	}
	for _, group := range []struct {
		tag     string
		actions []*model.Action
	}{
		{"enter", s.Enter}, {"during", s.During}, {"exit", s.Exit},
		{"during before", s.DuringBefore}, {"during after", s.DuringAfter},
		{">> during before", s.AspectBefore}, {">> during after", s.AspectAfter},
	} {
		for _, a := range group.actions {
			st.Actions = append(st.Actions, group.tag+" / "+actionText(a))
		}
	}
	for _, c := range s.Children {
		st.Children = append(st.Children, fcstmState(c, edges))
	}
	for i, t := range s.Transitions {
		e := Edge{Scope: s.Path, Forced: t.Forced, Source: i}
		if t.From != nil {
			e.From = t.From.Path
		}
		if t.To != nil {
			e.To = t.To.Path
		}
		if t.Event != nil {
			e.Event = t.Event.Name
		}
		if t.Guard != nil {
			e.Guard = expr.Format(t.Guard)
		}
		e.Label = edgeLabel(e.Event, e.Guard, stmtsText(t.Effect))
		if t.Forced {
			e.Label = "! " + e.Label
		}
		*edges = append(*edges, e)
	}
	return st
}

func actionText(a *model.Action) string {
	switch a.Kind {
	case model.Abstract:
		return "abstract " + a.Name
	case model.Ref:
		return "ref " + a.RefPath
	}
	body := stmtsText(a.Ops)
	if a.Name != "" {
		return a.Name + " { " + body + " }"
	}
	return "{ " + body + " }"
}

// stmtsText prints operation statements on one line.
func stmtsText(ss []model.Stmt) string {
	parts := make([]string, 0, len(ss))
	for _, s := range ss {
		switch n := s.(type) {
		case *model.Assign:
			parts = append(parts, n.Name+" = "+expr.Format(n.Value))
		case *model.If:
			var b strings.Builder
			for i, br := range n.Branches {
				if i > 0 {
					b.WriteString(" else ")
				}
				b.WriteString("if [" + expr.Format(br.Cond) + "] { " + stmtsText(br.Body) + " }")
			}
			if n.Else != nil {
				b.WriteString(" else { " + stmtsText(n.Else) + " }")
			}
			parts = append(parts, b.String())
		}
	}
	return strings.Join(parts, "; ")
}
