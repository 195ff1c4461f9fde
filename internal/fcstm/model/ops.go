package model

import (
	"errors"
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// initValue evaluates a variable initialiser (a constant expression, as
// the parser ensures) and converts it to the declared type. An
// initialiser without such a value is recorded on the variable (InitErr),
// not refused: initial variables of a hot start may override it.
func (b *builder) initValue(u *unit, d *ast.VarDef, v *Variable) {
	v.InitExpr = d.Init
	if !b.checkSort(u, d.Init, kindNum, nil) {
		return
	}
	fail := func(code, format string, args ...any) {
		v.InitErr = &Diagnostic{Code: code, Message: fmt.Sprintf(format, args...), Pos: u.pos(d.Init.Span().Start)}
	}
	val, err := expr.Eval(d.Init, expr.Vars{})
	if err != nil {
		var und *expr.Undefined
		if errors.As(err, &und) {
			fail("E_INIT_EVAL", "the initial value of '%s' cannot be computed: %s", d.Name.Name, und.Cause)
		} else {
			fail("E_INIT_EVAL", "the initial value of '%s' cannot be computed: %v", d.Name.Name, err)
		}
		return
	}
	want, typ := expr.Int, "int"
	if v.Type == Float {
		want, typ = expr.Real, "float"
	}
	cv, ok := expr.Convert(val, want)
	if !ok {
		fail("E_INIT_TYPE", "Variable '%s' is %s type, cannot assign float %s", d.Name.Name, typ, val)
		return
	}
	v.Init = cv
}

// scope is the set of names an operation block may read: the persistent
// variables of the file plus the temporaries assigned so far.
type scope struct {
	u     *unit
	temps map[string]bool
}

func (sc *scope) with() *scope {
	c := &scope{u: sc.u, temps: make(map[string]bool, len(sc.temps))}
	for k := range sc.temps {
		c.temps[k] = true
	}
	return c
}

// stmts converts an operation block. A name assigned that is not a
// persistent variable is a block-local temporary: readable after its
// assignment. After an if, the temporaries assigned in every branch
// (an else included) stay readable; the others end with their branch.
func (b *builder) stmts(sc *scope, in []ast.Stmt) []Stmt {
	var out []Stmt
	for _, s := range in {
		switch s := s.(type) {
		case *ast.Assign:
			b.checkSort(sc.u, s.Value, kindNum, sc)
			b.renameVars(sc, s.Value)
			final, persistent := sc.u.vars[s.Name.Name]
			a := &Assign{Name: s.Name.Name, Value: s.Value, Temp: !persistent, Pos: sc.u.pos(s.Pos)}
			if persistent {
				a.Name = final
			} else {
				sc.temps[s.Name.Name] = true
			}
			out = append(out, a)
		case *ast.If:
			n := &If{Pos: sc.u.pos(s.Pos)}
			var common map[string]bool
			for _, br := range s.Branches {
				b.checkSort(sc.u, br.Cond, kindBool, sc)
				b.renameVars(sc, br.Cond)
				inner := sc.with()
				n.Branches = append(n.Branches, IfBranch{Cond: br.Cond, Body: b.stmts(inner, br.Body)})
				common = intersect(common, inner.temps)
			}
			if s.HasElse {
				inner := sc.with()
				n.Else = b.stmts(inner, s.Else)
				if n.Else == nil {
					n.Else = []Stmt{}
				}
				for k := range intersect(common, inner.temps) {
					sc.temps[k] = true
				}
			}
			out = append(out, n)
		}
	}
	return out
}

func intersect(a, b map[string]bool) map[string]bool {
	if a == nil {
		return b
	}
	out := map[string]bool{}
	for k := range a {
		if b[k] {
			out[k] = true
		}
	}
	return out
}

// renameVars (called after checkSort, which reads the names as written)
// rewrites persistent variable references to their model
// names (imports rename variables). Expression trees of an imported file
// are parsed for that import alone, so renaming in place is safe.
func (b *builder) renameVars(sc *scope, e expr.Expr) {
	if sc.u.imp == nil {
		return
	}
	expr.Inspect(e, func(n expr.Expr) bool {
		if id, ok := n.(*expr.Ident); ok && !sc.temps[id.Name] {
			if final, ok := sc.u.vars[id.Name]; ok {
				id.Name = final
			}
		}
		return true
	})
}

// kind is the syntactic sort of an expression: numeric or boolean. FCSTM
// never mixes them; the numeric types (int, float) are checked when the
// runtime evaluates, as in the reference runtime.
type kind uint8

const (
	kindNum kind = iota + 1
	kindBool
)

func (s kind) String() string {
	if s == kindBool {
		return "a condition"
	}
	return "a number"
}

// checkSort reports the first sort or name error in e, which must be of
// sort want. sc is nil for an initialiser (no names at all).
func (b *builder) checkSort(u *unit, e expr.Expr, want kind, sc *scope) bool {
	got, err := sortOf(e, sc)
	if err == nil && got != want {
		err = &sortError{e.Span().Start, "E_TYPE", fmt.Sprintf("expected %s here, found %s", want, got)}
	}
	if err != nil {
		b.errorf(u, err.code, err.pos, "%s", err.msg)
		return false
	}
	return true
}

type sortError struct {
	pos  expr.Pos
	code string
	msg  string
}

func sortOf(e expr.Expr, sc *scope) (kind, *sortError) {
	switch n := e.(type) {
	case *expr.IntLit, *expr.FloatLit, *expr.Const:
		return kindNum, nil
	case *expr.BoolLit:
		return kindBool, nil
	case *expr.Ident:
		if sc != nil {
			if _, ok := sc.u.vars[n.Name]; ok || sc.temps[n.Name] {
				return kindNum, nil
			}
		}
		return 0, &sortError{n.Loc.Start, "E_UNKNOWN_VAR", fmt.Sprintf("unknown variable %q: define it with def int/float before the root state, or assign it earlier in this block to use it as a temporary", n.Name)}
	case *expr.Unary:
		want := kindNum
		if n.Op == expr.Not {
			want = kindBool
		}
		return want, operand(n.X, want, sc)
	case *expr.Binary:
		switch {
		case n.Op.IsLogical():
			return kindBool, both(n, kindBool, sc)
		case n.Op == expr.Eq || n.Op == expr.Ne:
			x, err := sortOf(n.X, sc)
			if err != nil {
				return 0, err
			}
			return kindBool, operand(n.Y, x, sc)
		case n.Op.IsComparison():
			return kindBool, both(n, kindNum, sc)
		}
		return kindNum, both(n, kindNum, sc)
	case *expr.Conditional:
		if err := operand(n.Cond, kindBool, sc); err != nil {
			return 0, err
		}
		t, err := sortOf(n.Then, sc)
		if err != nil {
			return 0, err
		}
		return t, operand(n.Else, t, sc)
	case *expr.FuncCall:
		return kindNum, operand(n.Arg, kindNum, sc)
	case *expr.AtomCall:
		return 0, &sortError{n.Loc.Start, "E_SYNTAX", fmt.Sprintf("unknown function %q (FCSTM has the math functions abs, sqrt, round, …; no user functions)", n.Name)}
	}
	return 0, &sortError{e.Span().Start, "E_SYNTAX", fmt.Sprintf("%s is not allowed in an FCSTM expression", expr.Format(e))}
}

func operand(e expr.Expr, want kind, sc *scope) *sortError {
	got, err := sortOf(e, sc)
	if err != nil {
		return err
	}
	if got != want {
		return &sortError{e.Span().Start, "E_TYPE", fmt.Sprintf("expected %s here, found %s (numbers and conditions never mix; compare with == or use (c) ? a : b)", want, got)}
	}
	return nil
}

func both(n *expr.Binary, want kind, sc *scope) *sortError {
	if err := operand(n.X, want, sc); err != nil {
		return err
	}
	return operand(n.Y, want, sc)
}
