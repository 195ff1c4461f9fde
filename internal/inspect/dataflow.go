package inspect

import (
	"sort"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// flow is what the model does with its persistent variables: where each
// is read and written, and which names each assignment reads (the edges
// of the use-def graph, temporaries included as names of their own).
type flow struct {
	reads, writes map[string]map[string]bool // var -> state paths
	guardVars     map[string]bool            // read directly by some transition guard
	feeds         map[string]map[string]bool // assigned name -> names its value (or an enclosing if) reads
	abstract      bool                       // some abstract action could read anything
}

func (a *analysis) flow() *flow {
	fl := &flow{reads: map[string]map[string]bool{}, writes: map[string]map[string]bool{}, guardVars: map[string]bool{}, feeds: map[string]map[string]bool{}}
	note := func(m map[string]map[string]bool, v, where string) {
		if m[v] == nil {
			m[v] = map[string]bool{}
		}
		m[v][where] = true
	}
	readAll := func(e expr.Expr, st site) {
		for _, v := range expr.FreeVars(e) {
			if a.m.VarByName[v] != nil {
				note(fl.reads, v, st.state.Path)
			}
		}
	}
	a.walkCode(nil, func(g expr.Expr, st site) {
		readAll(g, st)
		for _, v := range expr.FreeVars(g) {
			fl.guardVars[v] = true
		}
	}, nil)
	// Statements, with the conditions of the enclosing ifs: an assignment
	// under "if [c]" depends on what c reads.
	var block func(ops []model.Stmt, conds []string, st site)
	block = func(ops []model.Stmt, conds []string, st site) {
		for _, op := range ops {
			switch n := op.(type) {
			case *model.Assign:
				readAll(n.Value, st)
				if !n.Temp {
					note(fl.writes, n.Name, st.state.Path)
				}
				for _, v := range append(expr.FreeVars(n.Value), conds...) {
					note(fl.feeds, n.Name, v)
				}
			case *model.If:
				inner := conds
				for _, b := range n.Branches {
					readAll(b.Cond, st)
					inner = append(inner[:len(inner):len(inner)], expr.FreeVars(b.Cond)...)
					block(b.Body, inner, st)
				}
				block(n.Else, inner, st)
			}
		}
	}
	states(a.m.Root, func(s *model.State) {
		for _, t := range s.Transitions {
			if written(t) {
				block(t.Effect, nil, site{context: ctxEffect, state: sourceState(t)})
			}
		}
		for _, act := range actionsOf(s) {
			switch act.Kind {
			case model.Concrete:
				block(act.Ops, nil, site{context: ctxAction, state: s})
			case model.Abstract:
				fl.abstract = true
			}
		}
	})
	return fl
}

// influence returns the names that can reach a guard: the guards' own
// variables and, transitively, every name an assignment to one of them
// reads.
func (fl *flow) influence() map[string]bool {
	in := map[string]bool{}
	var queue []string
	for v := range fl.guardVars {
		in[v] = true
		queue = append(queue, v)
	}
	for len(queue) > 0 {
		v := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for w := range fl.feeds[v] {
			if !in[w] {
				in[w] = true
				queue = append(queue, w)
			}
		}
	}
	return in
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// dataFlow reports variables that never matter (no guard depends on
// them), that are written and never read, or read and never written, and
// guards whose variables never change.
func (a *analysis) dataFlow() {
	fl := a.flow()
	in := fl.influence()
	for _, v := range a.m.Vars {
		span := a.varSpan(v)
		init := a.initText(v)
		read, wrote := len(fl.reads[v.Name]) > 0, len(fl.writes[v.Name]) > 0
		if !in[v.Name] && fl.abstract {
			a.emit("I_UNREFERENCED_VAR_MAYBE_ABSTRACT", v.Pos.File, span,
				map[string]any{"var_name": v.Name, "abstract_actions_in_scope": a.abstractOwners()},
				"variable %s influences no transition guard within the model; an abstract action may still use it", v.Name)
		}
		if !in[v.Name] && !fl.abstract {
			refs := map[string]any{"var_name": v.Name, "init_value": init}
			if !read && !wrote {
				refs["definition_delete_anchor"] = v.Name
			}
			a.emit("W_UNREFERENCED_VAR", v.Pos.File, span, refs,
				"variable %s influences no transition guard, directly or through the assignments that feed one", v.Name)
		}
		if wrote && !read {
			where := sortedKeys(fl.writes[v.Name])
			a.emit("W_WRITE_ONLY_VAR", v.Pos.File, span, map[string]any{"var_name": v.Name, "written_states": where},
				"variable %s is assigned (in %s) but never read", v.Name, strings.Join(where, ", "))
		}
		if read && !wrote {
			where := sortedKeys(fl.reads[v.Name])
			a.emit("W_UNWRITTEN_READ_VAR", v.Pos.File, span, map[string]any{"var_name": v.Name, "read_states": where, "init_value": init},
				"variable %s is read (in %s) but never assigned: it keeps its initial value %s", v.Name, strings.Join(where, ", "), init)
		}
	}
	a.walkCode(nil, func(g expr.Expr, st site) {
		var vars []string
		for _, v := range expr.FreeVars(g) {
			if a.m.VarByName[v] == nil {
				continue
			}
			if len(fl.writes[v]) > 0 {
				return // one variable that changes is enough for the guard to change
			}
			vars = append(vars, v)
		}
		if len(vars) == 0 {
			return
		}
		from, to := ends(st.trans)
		a.emit("W_GUARD_VARS_NEVER_CHANGE", st.file, exprSpan(g),
			map[string]any{"from_path": endpointPath(from), "to_path": endpointPath(to), "guard_vars": vars},
			"guard [%s] reads only variables nothing assigns (%s): it is decided by their initial values", a.exprText(g, st.file), strings.Join(vars, ", "))
	}, nil)
	a.selfAssign()
}

// selfAssign reports effect statements `x = x;`.
func (a *analysis) selfAssign() {
	a.walkCode(nil, nil, func(op model.Stmt, st site) {
		n, ok := op.(*model.Assign)
		if !ok || n.Temp || st.context != ctxEffect {
			return
		}
		id, ok := n.Value.(*expr.Ident)
		if !ok || id.Name != n.Name {
			return
		}
		a.emit("W_EFFECT_SELF_ASSIGN", n.Pos.File, a.stmtSpan(n.Pos),
			map[string]any{"state_path": st.state.Path, "var_name": n.Name, "transition_span": a.stmtSpan(st.trans.Pos)},
			"effect assigns %s its own value, which changes nothing", n.Name)
	})
}

// varSpan is the span of a variable's declaration (`def int x = 0;`).
func (a *analysis) varSpan(v *model.Variable) Span {
	if v.Pos.File != a.file {
		return point(v.Pos.Line, v.Pos.Col)
	}
	return a.declSpanAt(v.Pos.Line, v.Pos.Col)
}

// initText is the initial value as written.
func (a *analysis) initText(v *model.Variable) string {
	if v.InitExpr == nil {
		return v.Init.String()
	}
	return a.exprText(v.InitExpr, v.Pos.File)
}
