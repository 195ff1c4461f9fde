package inspect

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// cTemplates are the code generator templates of the C/C++ deployment
// profile the numeric codes speak for.
func cTemplates() []string { return []string{"c", "c_poll", "cpp", "cpp_poll"} }

func cProfile(context, note string, st site) map[string]any {
	refs := map[string]any{"target_family": "c_family", "target_templates": cTemplates(), "runtime_note": note, "context": context}
	if st.assign {
		refs["statement_kind"] = "operation_assignment"
	}
	return refs
}

// guards reports written guards that read no variable and are constant
// (lint's constant folding, the one the dead-transition check uses).
// Combo terms have codes of their own and are left out.
func (a *analysis) guards() {
	a.walkCode(nil, func(g expr.Expr, st site) {
		t := st.trans
		if t.Origin != nil && !t.Forced {
			return
		}
		v, ok := lint.ConstantGuard(g)
		if !ok {
			return
		}
		code, effect := "W_GUARD_CONST_FALSE", "the transition never fires"
		if v {
			code, effect = "W_GUARD_CONST_TRUE", "it constrains nothing"
		}
		a.emit(code, st.file, exprSpan(g), map[string]any{
			"folded_value": v, "from_path": endpointPath(t.From), "to_path": endpointPath(t.To),
			"guard_text": expr.Format(g), "transition_span": a.stmtSpan(t.Pos),
		}, "guard [%s] reads no variable and is always %v: %s", a.exprText(g, st.file), v, effect)
	}, nil)
}

// numeric reports the C/C++ profile hazards: a constant zero divisor and
// a float operand of a bitwise operator.
func (a *analysis) numeric() {
	types := &expr.Table{Vars: map[string]expr.Type{}}
	for _, v := range a.m.Vars {
		types.Vars[v.Name] = expr.Int
		if v.Type == model.Float {
			types.Vars[v.Name] = expr.Real
		}
	}
	a.eachExpr(func(root expr.Expr, st site) {
		expr.Inspect(root, func(e expr.Expr) bool {
			if b, ok := e.(*expr.Binary); ok {
				a.divByZero(b, st)
				a.floatBitwise(b, st, types)
			}
			return true
		})
	})
}

func (a *analysis) divByZero(b *expr.Binary, st site) {
	if b.Op != expr.Div && b.Op != expr.Mod || len(expr.FreeVars(b.Y)) > 0 {
		return
	}
	v, err := expr.Eval(b.Y, expr.Vars{})
	if err != nil || v.Type() != expr.Int && v.Type() != expr.Real || v.Real() != 0 {
		return
	}
	refs := cProfile(st.context, "C and C++ code generated from the model has no defined result for a zero divisor; the Python runtime raises instead", st)
	refs["expr_text"] = a.exprText(b, st.file)
	refs["operator"] = b.Op.String()
	refs["rhs_text"] = a.exprText(b.Y, st.file)
	a.emit("W_NUMERIC_CONSTANT_DIVISION_BY_ZERO", st.file, exprSpan(b), refs,
		"the right-hand side of %s is always zero in %s", b.Op, a.exprText(b, st.file))
}

func (a *analysis) floatBitwise(b *expr.Binary, st site, types *expr.Table) {
	switch b.Op {
	case expr.BitAnd, expr.BitOr, expr.BitXor, expr.Shl, expr.Shr:
	default:
		return
	}
	var kinds, sources []string
	float := false
	for _, x := range []expr.Expr{b.X, b.Y} {
		k, src := operandType(x, types)
		kinds, sources = append(kinds, k), append(sources, src)
		float = float || k == "float"
	}
	if !float {
		return
	}
	refs := cProfile(st.context, "C and C++ define bitwise and shift operators on integers only; other runtimes may reject a float operand for other reasons", st)
	refs["expr_text"] = a.exprText(b, st.file)
	refs["operator"] = b.Op.String()
	refs["operand_types"] = kinds
	refs["operand_type_sources"] = sources
	a.emit("W_NUMERIC_FLOAT_BITWISE", st.file, exprSpan(b), refs,
		"a float operand reaches %s in %s", b.Op, a.exprText(b, st.file))
}

// operandType classifies an operand: its type tag and what the tag rests
// on. A block-local temporary is "unknown": its type is not followed
// across statements.
func operandType(x expr.Expr, types *expr.Table) (kind, source string) {
	switch n := x.(type) {
	case *expr.IntLit:
		return "int", "literal"
	case *expr.FloatLit:
		return "float", "literal"
	case *expr.Ident:
		if t, ok := types.Vars[n.Name]; ok {
			return typeTag(t), "declared_var"
		}
		return "unknown", "local_expression"
	}
	t, err := expr.Check(x, types)
	if err != nil {
		return "unknown", "local_expression"
	}
	return typeTag(t), "local_expression"
}

func typeTag(t expr.Type) string {
	switch t {
	case expr.Int:
		return "int"
	case expr.Real:
		return "float"
	}
	return "unknown"
}
