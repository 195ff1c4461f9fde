package lower

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/sts"
)

var stages = map[model.ActionStage]string{model.StageEnter: "enter", model.StageDuring: "during", model.StageExit: "exit"}

func source(p model.Pos) sts.Source { return sts.Source{File: p.File, Line: p.Line, Col: p.Col} }

// actions runs one slot's actions; host is the state executing them and
// leaf the active leaf the calls report.
func (l *lowering) actions(p *path, list []*model.Action, host, leaf *node) error {
	for _, a := range list {
		if err := l.action(p, a, host, leaf); err != nil {
			return err
		}
	}
	return nil
}

// duringChain runs a leaf's during chain: the ancestors' ">> during
// before" aspects from the root down, the leaf's during, the ancestors'
// ">> during after" aspects back up. A pseudo leaf runs only its own.
func (l *lowering) duringChain(p *path, leaf *node) error {
	if leaf.st.Pseudo {
		return l.actions(p, leaf.st.During, leaf, leaf)
	}
	var chain []*node
	for a := leaf.parent; a != nil; a = a.parent {
		chain = append(chain, a)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if err := l.actions(p, chain[i].st.AspectBefore, leaf, leaf); err != nil {
			return err
		}
	}
	if err := l.actions(p, leaf.st.During, leaf, leaf); err != nil {
		return err
	}
	for _, a := range chain {
		if err := l.actions(p, a.st.AspectAfter, leaf, leaf); err != nil {
			return err
		}
	}
	return nil
}

// action runs one action: a concrete block, or the call record of a named
// abstract action (anonymous ones call nothing).
func (l *lowering) action(p *path, a *model.Action, host, leaf *node) error {
	r := a.Resolved()
	switch r.Kind {
	case model.Concrete:
		return l.block(p, r.Ops)
	case model.Abstract:
		if r.Path == "" {
			return nil
		}
		call := sts.Call{Action: r.Path, Stage: stages[a.Stage], Role: a.Role.CallRole(), State: host.st.Path, ActiveLeaf: leaf.st.Path, After: len(p.effects), Src: source(a.Pos)}
		if a.Kind == model.Ref && a.Name != "" {
			call.NamedRef = a.Path
		}
		p.calls = append(p.calls, call)
	}
	return nil
}

// blockEnv is the static view of one operation block: the types of the
// variables' and temporaries' current values.
type blockEnv struct {
	l     *lowering
	p     *path
	temps map[string]expr.Type
}

func (b *blockEnv) VarType(name string) (expr.Type, bool) {
	if k, ok := b.l.vars[name]; ok {
		return b.p.types[k], true
	}
	t, ok := b.temps[name]
	return t, ok
}

func (b *blockEnv) AtomType(c *expr.AtomCall) (expr.Type, error) {
	return expr.Invalid, fmt.Errorf("%s: unknown function %q", c.Loc, c.Name)
}

// block runs an operation block: its statements as effects in order (an
// if statement's assignments as conditional values), then the writeback
// of every persistent variable it assigns: an int variable holding a real
// value must hold an integral one, which is stored as an int.
func (l *lowering) block(p *path, ops []model.Stmt) error {
	env := &blockEnv{l: l, p: p, temps: map[string]expr.Type{}}
	var assigned []int
	if err := l.stmts(env, ops, nil, &assigned); err != nil {
		return err
	}
	for _, k := range assigned {
		v := l.m.Vars[k]
		if v.Type != model.Int || p.types[k] != expr.Real {
			continue
		}
		x := &expr.Ident{Name: v.Name}
		floor := &expr.FuncCall{Fn: expr.Floor, Arg: x}
		integral := &expr.Binary{Op: expr.Eq, X: floor, Y: x}
		// Located at the block's last assignment of the variable, where the
		// runtime reports a failed writeback.
		src := sts.Source{File: v.Pos.File, Path: v.Name + " writeback"}
		for i := len(p.effects) - 1; i >= 0; i-- {
			if e := p.effects[i]; e.Var == k && e.Temp == "" {
				src.File, src.Line, src.Col = e.Src.File, e.Src.Line, e.Src.Col
				break
			}
		}
		c := sts.Cond{After: len(p.effects), Expr: integral, Mode: sts.Holds, Src: src}
		l.errorCase(p, sts.Cond{After: c.After, Expr: integral, Mode: sts.Fails, Src: c.Src})
		p.conds = append(p.conds, c)
		p.effects = append(p.effects, sts.Effect{Var: k, Value: floor, Src: c.Src})
		p.types[k] = expr.Int
	}
	return nil
}

// stmts lowers statements executed when on holds (nil: always).
func (l *lowering) stmts(env *blockEnv, ops []model.Stmt, on expr.Expr, assigned *[]int) error {
	p := env.p
	for _, op := range ops {
		switch op := op.(type) {
		case *model.Assign:
			val, t, err := l.typeOf(env, op.Value, op.Pos)
			if err != nil {
				return err
			}
			k, persistent := l.vars[op.Name]
			persistent = persistent && !op.Temp
			if on != nil {
				var cur expr.Expr = &expr.IntLit{}
				curT := expr.Int
				if persistent {
					cur, curT = &expr.Ident{Name: op.Name}, p.types[k]
				} else if tt, ok := env.temps[op.Name]; ok {
					cur, curT = &expr.Ident{Name: op.Name}, tt
				}
				val = &expr.Conditional{Cond: on, Then: val, Else: cur}
				if curT == expr.Real {
					t = expr.Real
				}
			}
			eff := sts.Effect{Var: -1, Value: val, Src: source(op.Pos)}
			if persistent {
				eff.Var = k
				if !slices.Contains(*assigned, k) {
					*assigned = append(*assigned, k)
				}
			} else {
				eff.Temp = op.Name
			}
			l.defined(p, val, eff.Src)
			p.effects = append(p.effects, eff)
			if persistent {
				if l.m.Vars[k].Type == model.Float {
					t = expr.Real
				}
				p.types[k] = t
			} else {
				env.temps[op.Name] = t
			}
		case *model.If:
			if err := l.ifStmt(env, op, on, assigned); err != nil {
				return err
			}
		}
	}
	return nil
}

// ifStmt evaluates the branch conditions in order, each only when the
// earlier ones failed, into temporaries, then lowers each branch under its
// own condition.
func (l *lowering) ifStmt(env *blockEnv, op *model.If, on expr.Expr, assigned *[]int) error {
	p := env.p
	rem := on // no earlier branch taken
	var conds []expr.Expr
	for _, br := range op.Branches {
		c, _, err := l.typeOf(env, br.Cond, op.Pos)
		if err != nil {
			return err
		}
		if rem != nil {
			c = &expr.Conditional{Cond: rem, Then: c, Else: &expr.BoolLit{}}
		}
		l.ntemp++
		name := fmt.Sprintf("if#%d", l.ntemp)
		src := source(op.Pos)
		l.defined(p, c, src)
		p.effects = append(p.effects, sts.Effect{Var: -1, Temp: name, Value: c, Src: src})
		env.temps[name] = expr.Bool
		taken := &expr.Ident{Name: name}
		conds = append(conds, taken)
		not := &expr.Unary{Op: expr.Not, X: taken}
		if rem == nil {
			rem = not
		} else {
			rem = &expr.Binary{Op: expr.Land, X: rem, Y: not}
		}
	}
	for i, br := range op.Branches {
		if err := l.stmts(env, br.Body, conds[i], assigned); err != nil {
			return err
		}
	}
	if op.Else != nil {
		return l.stmts(env, op.Else, rem, assigned)
	}
	return nil
}

// defined splits off the error case of evaluating e here, when e can fail,
// and requires its definedness on the path.
func (l *lowering) defined(p *path, e expr.Expr, src sts.Source) {
	if !partial(e) {
		return
	}
	c := sts.Cond{After: len(p.effects), Expr: e, Mode: sts.Defined, Src: src}
	l.errorCase(p, sts.Cond{After: c.After, Expr: e, Mode: sts.Undefined, Src: src})
	p.conds = append(p.conds, c)
}

// typeOf checks that e is supported and returns it with its constant
// powers folded, and its static type.
func (l *lowering) typeOf(env *blockEnv, e expr.Expr, pos model.Pos) (expr.Expr, expr.Type, error) {
	e = fold(e)
	types := map[expr.Expr]expr.Type{}
	t, err := expr.CheckTypes(e, env, types)
	if uerr := unsupported(e, types, pos); uerr != nil {
		return nil, expr.Invalid, uerr
	}
	if err != nil {
		// The runtime raises a type error when it evaluates e; an exact
		// encoding would need run-time types.
		return nil, expr.Invalid, &Error{Pos: pos, Unsupported: true, Msg: err.Error()}
	}
	return e, t, nil
}

// supported checks a guard read on path p and returns it folded.
func (l *lowering) supported(p *path, e expr.Expr, pos model.Pos) (expr.Expr, error) {
	e, _, err := l.typeOf(&blockEnv{l: l, p: p, temps: map[string]expr.Type{}}, e, pos)
	return e, err
}
