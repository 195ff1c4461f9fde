package runtime

import (
	"errors"
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// actions runs a list of lifecycle actions of one slot. host is the state
// the calls report (the state executing them) and the active leaf.
func (s *search) actions(c *ctx, list []*model.Action, host, leaf *stateInfo, stage Stage) error {
	for _, a := range list {
		if err := s.action(c, a, host, leaf, stage, ""); err != nil {
			return err
		}
	}
	return nil
}

// duringChain runs a leaf's during chain: the ancestors' ">> during
// before" aspects from the root down, the leaf's own during, the
// ancestors' ">> during after" aspects back up. Pseudo leaves run only
// their own during.
func (s *search) duringChain(c *ctx, leaf *stateInfo) error {
	if leaf.st.Pseudo {
		return s.actions(c, leaf.st.During, leaf, leaf, StageDuring)
	}
	chain := leaf.ancestors
	for i := len(chain) - 1; i >= 0; i-- {
		for _, a := range chain[i].st.AspectBefore {
			if err := s.action(c, a, leaf, leaf, StageDuring, leaf.st.Path); err != nil {
				return err
			}
		}
	}
	if err := s.actions(c, leaf.st.During, leaf, leaf, StageDuring); err != nil {
		return err
	}
	for _, anc := range chain {
		for _, a := range anc.st.AspectAfter {
			if err := s.action(c, a, leaf, leaf, StageDuring, leaf.st.Path); err != nil {
				return err
			}
		}
	}
	return nil
}

// action runs one action: records it, then runs its statements or records
// its abstract call. aspectLeaf is the leaf an aspect runs for.
func (s *search) action(c *ctx, a *model.Action, host, leaf *stateInfo, stage Stage, aspectLeaf string) error {
	r := a.Resolved()
	if r.Kind == model.Concrete && len(r.Ops) == 0 && a.Kind != model.Ref {
		return nil
	}
	if s.quiet {
		if r.Kind == model.Concrete {
			return s.block(c, s.ix.block(r.Ops))
		}
		return nil // no trace, no handler
	}
	rec := Action{Role: a.Role, State: a.State.Path, Name: a.Name, Abstract: r.Kind == model.Abstract, Leaf: aspectLeaf}
	if a.Kind == model.Ref && a.Target != nil {
		rec.Ref = r.Path
	}
	c.actions = append(c.actions, rec)
	switch r.Kind {
	case model.Concrete:
		return s.block(c, s.ix.block(r.Ops))
	case model.Abstract:
		if r.Path == "" {
			return nil // an anonymous abstract action has no handler
		}
		call := AbstractCall{Action: r.Path, Stage: stage, Role: a.Role, State: host.st.Path, ActiveLeaf: leaf.st.Path}
		if a.Kind == model.Ref && a.Name != "" {
			call.NamedRef = a.Path
		}
		c.calls = append(c.calls, pendingCall{call: call, vars: append([]expr.Value(nil), c.vars...)})
	}
	return nil
}

// block runs an operation block: statements in order over the persistent
// variables and block-local temporaries, then the writeback of every
// persistent variable it assigned, converted to its declared type.
func (s *search) block(c *ctx, ops []stmt) error {
	if len(ops) > 0 {
		s.note(tapeOp{kind: tBlock, block: ops})
	}
	s.temps = s.temps[:0]
	s.env = varEnv{ix: s.ix, vars: c.vars, temps: &s.temps}
	s.assigned = s.assigned[:0]
	if err := s.stmts(&s.env, ops, &s.assigned); err != nil {
		return err
	}
	for _, a := range s.assigned {
		c.wrote |= 1 << min(a.idx, 63)
		if c.vars[a.idx].Type() == s.ix.varTypes[a.idx] {
			continue // Convert would return it as it is
		}
		v, ok := expr.Convert(c.vars[a.idx], s.ix.varTypes[a.idx])
		if !ok {
			mv := s.ix.m.Vars[a.idx]
			return errorf(ClassWriteback, a.pos, nil, "variable '%s' is %s: cannot store %s (non-integer float from operation block writeback)", mv.Name, typeName(mv.Type), c.vars[a.idx])
		}
		s.set(c.vars, a.idx, v)
	}
	return nil
}

// assignment is a persistent variable a block assigned, with its last
// assignment (where a writeback failure is reported).
type assignment struct {
	idx int
	pos model.Pos
}

func (s *search) stmts(env *varEnv, ops []stmt, assigned *[]assignment) error {
	for i := range ops {
		op := &ops[i]
		if a := op.assign; a != nil {
			v, err := op.value.Run(env.vars, env)
			if err != nil {
				return exprError(a.Pos, err, fmt.Sprintf("operation assignment to '%s' evaluation failed", a.Name))
			}
			if v.Type() == expr.Bool {
				return errorf(ClassExpression, a.Pos, nil, "operation assignment to '%s' evaluation failed: a condition is not a number", a.Name)
			}
			if op.slot >= 0 {
				s.set(env.vars, op.slot, v)
				noteAssignment(assigned, op.slot, a.Pos)
				continue
			}
			env.setTemp(a.Name, v)
			continue
		}
		body := op.els
		for k, cond := range op.conds {
			v, err := cond.Run(env.vars, env)
			if err != nil {
				return exprError(op.ifs.Pos, err, "if-block condition evaluation failed")
			}
			if v.Type() != expr.Bool {
				return errorf(ClassExpression, op.ifs.Pos, nil, "if-block condition evaluation failed: the condition is %s", v.Type())
			}
			if v.Bool() {
				body = op.bodies[k]
				break
			}
		}
		if err := s.stmts(env, body, assigned); err != nil {
			return err
		}
	}
	return nil
}

func noteAssignment(assigned *[]assignment, idx int, pos model.Pos) {
	for i := range *assigned {
		if (*assigned)[i].idx == idx {
			(*assigned)[i].pos = pos
			return
		}
	}
	*assigned = append(*assigned, assignment{idx, pos})
}

func typeName(t model.VarType) string {
	if t == model.Float {
		return "float"
	}
	return "int"
}

// varEnv is the valuation of guards and statements: the persistent
// variables, then the block's temporaries.
type varEnv struct {
	ix    *index
	vars  []expr.Value
	temps *[]temp
}

type temp struct {
	name string
	v    expr.Value
}

func (e *varEnv) Value(name string) (expr.Value, bool) {
	if i, ok := e.ix.varIdx[name]; ok {
		return e.vars[i], true
	}
	if e.temps != nil {
		for _, t := range *e.temps {
			if t.name == name {
				return t.v, true
			}
		}
	}
	return expr.Value{}, false
}

func (e *varEnv) Atom(call *expr.AtomCall) (expr.Value, error) {
	return expr.Vars(nil).Atom(call)
}

func (e *varEnv) setTemp(name string, v expr.Value) {
	if e.temps == nil {
		e.temps = new([]temp)
	}
	for i := range *e.temps {
		if (*e.temps)[i].name == name {
			(*e.temps)[i].v = v
			return
		}
	}
	*e.temps = append(*e.temps, temp{name, v})
}

// exprError wraps an evaluation failure; the cause's text follows what
// failed so that "division by zero" reads as such.
func exprError(pos model.Pos, err error, what string) *Error {
	var u *expr.Undefined
	if errors.As(err, &u) {
		return errorf(ClassExpression, pos, err, "%s: %s", what, u.Reason())
	}
	var te *expr.TypeError
	if errors.As(err, &te) {
		return errorf(ClassExpression, pos, err, "%s: %s", what, te.Msg)
	}
	return errorf(ClassExpression, pos, err, "%s: %v", what, err)
}
