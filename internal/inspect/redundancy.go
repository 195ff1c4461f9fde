package inspect

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// redundancy reports repeated transitions, forced declarations that
// expand to nothing, and named actions that reuse an ancestor's name.
func (a *analysis) redundancy() {
	states(a.m.Root, func(s *model.State) {
		a.redundantTransitions(s)
		a.shadowedNames(s)
	})
	a.forcedNeverExpands()
}

// redundantTransitions reports each transition written after another of
// the same owner with the same source, target, event, guard and effect
// (compared in canonical form).
func (a *analysis) redundantTransitions(s *model.State) {
	groups := map[string][]*model.Transition{}
	var order []string
	for _, t := range s.Transitions {
		if t.Origin != nil {
			continue // combo hops and injected forced copies stand for a written transition counted once
		}
		k := transitionKey(t)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], t)
	}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		spans := make([]Span, len(g))
		for i, t := range g {
			spans[i] = a.stmtSpan(t.Pos)
		}
		for _, t := range g[1:] {
			if a.redundant == nil {
				a.redundant = map[*model.Transition]bool{}
			}
			a.redundant[t] = true
			a.emit("W_REDUNDANT_TRANSITION", t.Pos.File, a.stmtSpan(t.Pos),
				map[string]any{"from_path": endpointPath(t.From), "to_path": endpointPath(t.To), "duplicate_spans": spans},
				"transition %s -> %s repeats the one on line %d (same event, guard and effect)", endpointPath(t.From), endpointPath(t.To), g[0].Pos.Line)
		}
	}
}

// transitionKey is the behaviour of a transition in canonical text.
func transitionKey(t *model.Transition) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|", endpointPath(t.From), endpointPath(t.To))
	if t.Event != nil {
		b.WriteString(t.Event.Path)
	}
	b.WriteByte('|')
	if t.Guard != nil {
		b.WriteString(expr.Format(t.Guard))
	}
	b.WriteByte('|')
	writeStmts(&b, t.Effect)
	return b.String()
}

func writeStmts(b *strings.Builder, ops []model.Stmt) {
	for _, op := range ops {
		switch n := op.(type) {
		case *model.Assign:
			fmt.Fprintf(b, "%s=%s;", n.Name, expr.Format(n.Value))
		case *model.If:
			for _, br := range n.Branches {
				fmt.Fprintf(b, "if[%s]{", expr.Format(br.Cond))
				writeStmts(b, br.Body)
				b.WriteString("}")
			}
			b.WriteString("else{")
			writeStmts(b, n.Else)
			b.WriteString("}")
		}
	}
}

// shadowedNames reports the named actions of s whose name an ancestor's
// named action already has.
func (a *analysis) shadowedNames(s *model.State) {
	for _, act := range actionsOf(s) {
		if act.Name == "" {
			continue
		}
		for p := s.Parent; p != nil; p = p.Parent {
			if outer := namedAction(p, act.Name); outer != nil {
				a.emit("W_NAMED_ACTION_SHADOWS_ANCESTOR", act.Pos.File, a.stmtSpan(act.Pos),
					map[string]any{"function_name": act.Name, "inner_state_path": s.Path, "outer_state_path": p.Path},
					"named action %s of %s has the name of the action %s of its ancestor %s; a ref to %s may not mean the one intended", act.Name, s.Path, outer.Path, p.Path, act.Name)
				break
			}
		}
	}
}

func namedAction(s *model.State, name string) *model.Action {
	for _, act := range actionsOf(s) {
		if act.Name == name {
			return act
		}
	}
	return nil
}

// forcedNeverExpands reports the `!* -> …` declarations of the root file
// in a state without child states: there is nothing for them to force.
func (a *analysis) forcedNeverExpands() {
	if a.tree == nil || a.tree.Root == nil {
		return
	}
	declStates(a.tree.Root, "", func(path string, d *ast.StateDecl) {
		children := false
		for _, it := range d.Items {
			switch it.(type) {
			case *ast.StateDecl, *ast.Import:
				children = true
			}
		}
		if children {
			return
		}
		for _, it := range d.Items {
			f, ok := it.(*ast.Forced)
			if !ok || f.From != nil {
				continue
			}
			p := model.Pos{File: a.file, Line: f.Pos.Line, Col: f.Pos.Col}
			span := a.src.statement(p)
			raw := spanSource(a.src, span)
			a.emit("W_FORCED_NEVER_EXPANDS", a.file, span,
				map[string]any{"state_path": path, "original_raw": raw},
				"forced transition !* in %s has no child state to leave from: it never applies", path)
			// The declaration is a written transition that never fires too;
			// with no expansion it has no source state nor index.
			to := "[*]"
			if f.To != nil {
				to = path + "." + f.To.Name
			}
			a.emit("W_UNREACHABLE_TRANSITION", a.file, span,
				map[string]any{"from_path": path, "to_path": to, "reasons": []string{reasonNoExpand},
					"source_state_path": nil, "transition_index": nil, "forced_origin": raw},
				"forced transition !* in %s can never fire (%s)", path, reasonNoExpand)
		}
	})
}

// spanSource is the text a span of the root file covers.
func spanSource(s *source, sp Span) string {
	from, to := s.offset(sp.Line, sp.Column), s.offset(sp.EndLine, sp.EndColumn)
	if to < 0 && sp.EndLine == len(s.lines) {
		to = len(s.text)
	}
	if from < 0 || to < from {
		return ""
	}
	return s.text[from:to]
}
