package inspect

import (
	"math/big"
	"strconv"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// targetBits is the width of the C/C++ profile's integers
// (PYFCSTM_GENERATED_INT64, signed).
const targetBits = 64

// literals reports the literal and shift hazards of the C/C++ profile:
// an integer literal outside int64, a constant shift count outside
// 0..63, and a float literal written straight into an int variable.
func (a *analysis) literals() {
	a.eachExpr(func(root expr.Expr, st site) {
		expr.Inspect(root, func(e expr.Expr) bool {
			switch n := e.(type) {
			case *expr.Unary:
				if lit, ok := n.X.(*expr.IntLit); ok && n.Op == expr.Neg {
					// The sign is part of the literal: -9223372036854775808 fits.
					a.literalRange(n, new(big.Int).Neg(lit.BigInt()), st)
					return false
				}
			case *expr.IntLit:
				a.literalRange(n, n.BigInt(), st)
			case *expr.Binary:
				a.shiftCount(n, st)
			}
			return true
		})
	})
	a.narrowing()
}

func (a *analysis) literalRange(e expr.Expr, v *big.Int, st site) {
	if v.IsInt64() {
		return
	}
	refs := cProfile(st.context, "C and C++ code generated from the model holds integers in 64 signed bits, where the literal does not fit; the Python runtime's integers are unbounded", st)
	refs["expr_text"] = a.exprText(e, st.file)
	refs["literal_text"] = v.String()
	refs["target_bits"] = targetBits
	refs["signed"] = true
	refs["min_value_text"] = strconv.FormatInt(-1<<63, 10)
	refs["max_value_text"] = strconv.FormatInt(1<<63-1, 10)
	a.emit("W_NUMERIC_LITERAL_OUT_OF_TARGET_RANGE", st.file, exprSpan(e), refs,
		"the integer literal %s does not fit the 64-bit signed integers of C and C++", v)
}

func (a *analysis) shiftCount(b *expr.Binary, st site) {
	if b.Op != expr.Shl && b.Op != expr.Shr || len(expr.FreeVars(b.Y)) > 0 {
		return
	}
	v, err := expr.Eval(b.Y, expr.Vars{})
	if err != nil || v.Type() != expr.Int {
		return // a non-integer count is a type error, not this code's
	}
	n := v.BigInt()
	if n.Sign() >= 0 && n.Cmp(big.NewInt(targetBits)) < 0 {
		return
	}
	note := "a count of " + strconv.Itoa(targetBits) + " or more is undefined for the 64-bit integers of C and C++; the Python runtime shifts unbounded integers"
	if n.Sign() < 0 {
		note = "a negative shift count is rejected at run time by the simulator and by every generated runtime"
	}
	refs := cProfile(st.context, note, st)
	refs["expr_text"] = a.exprText(b, st.file)
	refs["operator"] = b.Op.String()
	refs["target_bits"] = targetBits
	refs["shift_count_text"] = n.String()
	a.emit("W_NUMERIC_SHIFT_COUNT_OUT_OF_TARGET_RANGE", st.file, exprSpan(b), refs,
		"the shift count of %s is always %s, outside 0..%d", a.exprText(b, st.file), n, targetBits-1)
}

// narrowing reports an int variable initialised or assigned straight
// from a float literal; a compound expression is left alone.
func (a *analysis) narrowing() {
	isInt := map[string]bool{}
	for _, v := range a.m.Vars {
		isInt[v.Name] = v.Type == model.Int
		if lit, ok := v.InitExpr.(*expr.FloatLit); ok && v.Type == model.Int {
			a.narrowed(v.Name, lit, v.Pos.File)
		}
	}
	a.walkCode(nil, nil, func(op model.Stmt, st site) {
		if n, ok := op.(*model.Assign); ok && !n.Temp && isInt[n.Name] {
			if lit, ok := n.Value.(*expr.FloatLit); ok {
				a.narrowed(n.Name, lit, st.file)
			}
		}
	})
}

func (a *analysis) narrowed(name string, lit *expr.FloatLit, file string) {
	text := a.exprText(lit, file)
	a.emit("W_LITERAL_TYPE_NARROWING", file, exprSpan(lit),
		map[string]any{"var_name": name, "target_type": "int", "source_expr": text},
		"int variable %s takes the float literal %s: the value is narrowed to an integer", name, text)
}
