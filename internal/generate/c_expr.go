package generate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// cFunc is the body of one generated C function. C has no closures, so
// an expression becomes statements computing it into locals (v1, v2, …),
// which lets the short-circuit operators and conditionals evaluate a
// branch only when the runtime does. An operation that fails records the
// failure in the env; the operations after it do nothing, and the
// statement running the expression turns it into the block's error.
type cFunc struct {
	g     *cGen
	b     strings.Builder
	n     int
	ind   string
	at    model.Pos         // the statement or transition, for refusals
	temps map[string]string // block temporaries: name -> local
}

func (f *cFunc) local() string {
	f.n++
	return "v" + strconv.Itoa(f.n)
}

func (f *cFunc) line(format string, args ...any) {
	f.b.WriteString(f.ind + "\t" + fmt.Sprintf(format, args...) + "\n")
}

// blockFunc is the body of a block's function: its temporaries, then its
// statements.
func (g *cGen) blockFunc(ops []model.Stmt) (string, error) {
	f := &cFunc{g: g, temps: map[string]string{}}
	var names []string
	collectTemps(g, ops, f.temps, &names)
	var decl strings.Builder
	for _, n := range names {
		t := f.temps[n]
		fmt.Fprintf(&decl, "\tfv %s = bad_v(); /* temporary %s */\n\tint %s_set = 0;\n\t(void)%s;\n\t(void)%s_set;\n", t, cComment(n), t, t, t)
	}
	if err := f.block(ops); err != nil {
		return "", err
	}
	return decl.String() + f.b.String(), nil
}

// collectTemps gives every name a block assigns that is not a persistent
// variable (or is declared temporary) a local.
func collectTemps(g *cGen, ops []model.Stmt, temps map[string]string, names *[]string) {
	for _, op := range ops {
		switch op := op.(type) {
		case *model.Assign:
			if _, ok := g.varIdx[op.Name]; ok && !op.Temp {
				continue
			}
			if _, ok := temps[op.Name]; !ok {
				temps[op.Name] = "t" + strconv.Itoa(len(temps)+1)
				*names = append(*names, op.Name)
			}
		case *model.If:
			for _, br := range op.Branches {
				collectTemps(g, br.Body, temps, names)
			}
			collectTemps(g, op.Else, temps, names)
		}
	}
}

func (f *cFunc) block(ops []model.Stmt) error {
	for _, op := range ops {
		switch op := op.(type) {
		case *model.Assign:
			f.at = op.Pos
			f.line("/* %s = %s (%s) */", cComment(op.Name), cComment(oneLine(expr.Format(op.Value))), where(op.Pos))
			f.line("{")
			f.ind += "\t"
			x, err := f.expr(op.Value)
			if err != nil {
				return err
			}
			f.line("if (e->failed) {\n%s\t\tstmt_fail(e, %s, \"operation assignment to\", %s);\n%s\t\treturn;\n%s\t}", f.ind, cPos(op.Pos), cQuote(op.Name), f.ind, f.ind)
			if i, ok := f.g.varIdx[op.Name]; ok && !op.Temp {
				f.line("env_set(e, %d, %s, %s);", i, x, cPos(op.Pos))
			} else {
				t := f.temps[op.Name]
				f.line("%s = %s;", t, x)
				f.line("%s_set = 1;", t)
			}
			f.ind = f.ind[1:]
			f.line("}")
		case *model.If:
			f.at = op.Pos
			f.line("/* if (%s) */", where(op.Pos))
			if err := f.branches(op, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// branches writes branch i of an if and, in its else, the ones after it.
func (f *cFunc) branches(op *model.If, i int) error {
	if i == len(op.Branches) {
		return f.block(op.Else)
	}
	f.line("{")
	f.ind += "\t"
	c, err := f.expr(op.Branches[i].Cond)
	if err != nil {
		return err
	}
	f.line("if (e->failed) {\n%s\t\tstmt_fail(e, %s, \"if-block condition evaluation failed\", 0);\n%s\t\treturn;\n%s\t}", f.ind, cPos(op.Pos), f.ind, f.ind)
	f.line("if (truth(%s)) {", c)
	f.ind += "\t"
	if err := f.block(op.Branches[i].Body); err != nil {
		return err
	}
	f.ind = f.ind[1:]
	f.line("} else {")
	f.ind += "\t"
	if err := f.branches(op, i+1); err != nil {
		return err
	}
	f.ind = f.ind[1:]
	f.line("}")
	f.ind = f.ind[1:]
	f.line("}")
	return nil
}

var cOps = map[expr.Op]string{
	expr.Add: "O_ADD", expr.Sub: "O_SUB", expr.Mul: "O_MUL", expr.Div: "O_DIV", expr.Mod: "O_MOD", expr.Pow: "O_POW",
	expr.Shl: "O_SHL", expr.Shr: "O_SHR", expr.BitAnd: "O_AND", expr.BitOr: "O_OR", expr.BitXor: "O_XOR",
	expr.Eq: "O_EQ", expr.Ne: "O_NE", expr.Lt: "O_LT", expr.Le: "O_LE", expr.Gt: "O_GT", expr.Ge: "O_GE",
	expr.Lxor: "O_LXOR", expr.Iff: "O_IFF",
}

var cFuncs = map[expr.Func]string{
	expr.Abs: "fn_abs", expr.Sign: "fn_sign", expr.Ceil: "fn_ceil", expr.Floor: "fn_floor", expr.Round: "fn_round_even",
	expr.Trunc: "fn_trunc", expr.Sqrt: "fn_sqrt",
}

// expr writes the statements computing e and returns the C expression
// (a local or a variable) holding its value.
func (f *cFunc) expr(e expr.Expr) (string, error) {
	here := func() model.Pos {
		p := e.Span().Start
		if p.Line > 0 {
			return model.Pos{File: f.at.File, Line: p.Line, Col: p.Col}
		}
		return f.at
	}
	switch n := e.(type) {
	case *expr.IntLit:
		if n.Big != nil {
			v := f.local()
			f.line("fv %s = undefined(e, cause_overflow, %s);", v, cQuote(n.Big.String()))
			return v, nil
		}
		return cInt(n.Value), nil
	case *expr.FloatLit:
		return cFloatLit(n.Value), nil
	case *expr.BoolLit:
		return fmt.Sprintf("bool_v(%d)", b2i(n.Value)), nil
	case *expr.Const:
		if c, ok := constants[n.Name]; ok {
			return cFloatLit(c), nil
		}
	case *expr.Ident:
		if i, ok := f.g.varIdx[n.Name]; ok {
			return fmt.Sprintf("e->vars[%d]", i), nil
		}
		if t, ok := f.temps[n.Name]; ok {
			return fmt.Sprintf("(%s_set ? %s : no_such_var(e, %s))", t, t, cQuote(n.Name)), nil
		}
		return fmt.Sprintf("no_such_var(e, %s)", cQuote(n.Name)), nil
	case *expr.Unary:
		// -9223372036854775808 is how a model writes INT64_MIN: the
		// literal alone leaves 64 bits, its negation does not.
		if lit, ok := n.X.(*expr.IntLit); ok && n.Op == expr.Neg && lit.Big != nil && lit.Big.IsUint64() && lit.Big.Uint64() == 1<<63 {
			return cInt(math.MinInt64), nil
		}
		x, err := f.expr(n.X)
		if err != nil {
			return "", err
		}
		switch n.Op {
		case expr.Neg:
			return f.assign("op_neg(e, " + x + ")"), nil
		case expr.Not:
			return f.assign("op_not(e, " + x + ")"), nil
		case expr.Plus:
			return x, nil
		}
	case *expr.Binary:
		return f.binary(n)
	case *expr.Conditional:
		return f.conditional(n)
	case *expr.FuncCall:
		fn, ok := cFuncs[n.Fn]
		if !ok {
			return "", &Unsupported{Pos: here(), Feature: "float-function", Message: fmt.Sprintf("%s: the C standard library does not compute this function correctly rounded, as the runtime does", n.Fn)}
		}
		x, err := f.expr(n.Arg)
		if err != nil {
			return "", err
		}
		return f.assign(fn + "(e, " + x + ")"), nil
	}
	return "", &Unsupported{Pos: here(), Feature: "expression", Message: fmt.Sprintf("%s cannot be generated", describe(e))}
}

// assign stores a C expression's value in a new local.
func (f *cFunc) assign(x string) string {
	v := f.local()
	f.line("fv %s = %s;", v, x)
	return v
}

func (f *cFunc) binary(n *expr.Binary) (string, error) {
	x, err := f.expr(n.X)
	if err != nil {
		return "", err
	}
	x = f.assign(x)
	switch n.Op {
	case expr.Land, expr.Lor, expr.Implies:
		r := f.local()
		test := map[expr.Op]string{expr.Land: "!truth(%s)", expr.Lor: "truth(%s)", expr.Implies: "!truth(%s)"}[n.Op]
		short := x
		if n.Op == expr.Implies {
			short = "bool_v(1)"
		}
		f.line("fv %s;", r)
		f.line("if (e->failed || "+test+") {", x)
		f.line("\t%s = %s;", r, short)
		f.line("} else {")
		f.ind += "\t"
		y, err := f.expr(n.Y)
		if err != nil {
			return "", err
		}
		f.line("%s = %s;", r, y)
		f.ind = f.ind[1:]
		f.line("}")
		return r, nil
	}
	y, err := f.expr(n.Y)
	if err != nil {
		return "", err
	}
	op, ok := cOps[n.Op]
	if !ok {
		return "", &Unsupported{Pos: f.at, Feature: "expression", Message: fmt.Sprintf("operator %s cannot be generated", n.Op)}
	}
	return f.assign(fmt.Sprintf("op_bin(e, %s, %s, %s, %s)", op, x, y, cQuote(describe(n)))), nil
}

// conditional is c ? a : b. The runtime makes an int result a float when
// the other branch's type is float, typed by the current values.
func (f *cFunc) conditional(n *expr.Conditional) (string, error) {
	c, err := f.expr(n.Cond)
	if err != nil {
		return "", err
	}
	r := f.local()
	f.line("fv %s = bad_v();", r)
	f.line("if (!e->failed && truth(%s)) {", c)
	f.ind += "\t"
	a, err := f.expr(n.Then)
	if err != nil {
		return "", err
	}
	f.line("%s = op_cond(e, %s, %s);", r, a, f.kind(n.Else))
	f.ind = f.ind[1:]
	f.line("} else if (!e->failed) {")
	f.ind += "\t"
	b, err := f.expr(n.Else)
	if err != nil {
		return "", err
	}
	f.line("%s = op_cond(e, %s, %s);", r, b, f.kind(n.Then))
	f.ind = f.ind[1:]
	f.line("}")
	return r, nil
}

// kind is the C expression of e's type, as the runtime's checker gives it
// from the current values; K_INVALID for a type error.
func (f *cFunc) kind(e expr.Expr) string {
	switch n := e.(type) {
	case *expr.IntLit:
		return "K_INT"
	case *expr.FloatLit, *expr.Const:
		return "K_FLOAT"
	case *expr.BoolLit:
		return "K_BOOL"
	case *expr.Ident:
		if i, ok := f.g.varIdx[n.Name]; ok {
			return fmt.Sprintf("(int)e->vars[%d].kind", i)
		}
		if t, ok := f.temps[n.Name]; ok {
			return fmt.Sprintf("(%s_set ? (int)%s.kind : K_INVALID)", t, t)
		}
		return "K_INVALID"
	case *expr.Unary:
		if n.Op == expr.Not {
			return "t_not(" + f.kind(n.X) + ")"
		}
		return "t_num(" + f.kind(n.X) + ")"
	case *expr.Binary:
		x, y := f.kind(n.X), f.kind(n.Y)
		switch {
		case n.Op == expr.Eq || n.Op == expr.Ne:
			return "t_eq(" + x + ", " + y + ")"
		case n.Op.IsLogical():
			return "t_both(" + x + ", " + y + ", K_BOOL, K_BOOL)"
		case n.Op.IsComparison():
			return "t_both(" + x + ", " + y + ", 0, K_BOOL)"
		case n.Op == expr.Div:
			return "t_both(" + x + ", " + y + ", 0, K_FLOAT)"
		case n.Op == expr.BitAnd || n.Op == expr.BitOr || n.Op == expr.BitXor || n.Op == expr.Shl || n.Op == expr.Shr:
			return "t_both(" + x + ", " + y + ", K_INT, K_INT)"
		}
		return "t_join(" + x + ", " + y + ")"
	case *expr.Conditional:
		return "t_cond(" + f.kind(n.Cond) + ", " + f.kind(n.Then) + ", " + f.kind(n.Else) + ")"
	case *expr.FuncCall:
		keep := n.Fn == expr.Abs
		toInt := n.Fn == expr.Ceil || n.Fn == expr.Floor || n.Fn == expr.Round || n.Fn == expr.Trunc || n.Fn == expr.Sign
		return fmt.Sprintf("t_func(%s, %d, %d)", f.kind(n.Arg), b2i(keep), b2i(toInt))
	}
	return "K_INVALID"
}

// cInt is an int constant; INT64_MIN has no literal.
func cInt(i int64) string {
	if i == math.MinInt64 {
		return "int_v(INT64_MIN)"
	}
	return fmt.Sprintf("int_v(INT64_C(%d))", i)
}

// cFloatLit is a float constant, bit for bit, with its value in a comment.
func cFloatLit(x float64) string {
	return fmt.Sprintf("float_bits(UINT64_C(0x%016x) /* %s */)", math.Float64bits(x), cComment(expr.RealVal(x).String()))
}

func cPos(p model.Pos) string { return "(pos_t)" + cPosInit(p) }

func cPosInit(p model.Pos) string {
	return fmt.Sprintf("{%s, %d, %d}", cQuote(p.File), p.Line, p.Col)
}

// cQuote is a C string literal of s: printable ASCII as is, every other
// byte in octal, '?' escaped (no trigraphs), and the templates'
// placeholder prefix broken up so that renaming cannot touch it.
func cQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\' || c == '?':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f, (c == 'f' || c == 'F') && strings.EqualFold(s[i:min(len(s), i+8)], "fcstmgen"):
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// cComment keeps model text inside a C comment harmless: on one line, no
// comment end, no trigraph, no placeholder prefix.
func cComment(s string) string {
	s = oneLine(s)
	s = strings.ReplaceAll(s, "*/", "* /")
	s = strings.ReplaceAll(s, "??", "? ?")
	s = strings.ReplaceAll(s, "\\", "\\ ")
	for _, p := range []string{"fcstmgen", "FCSTMGEN"} {
		s = strings.ReplaceAll(s, p, p[:5]+" "+p[5:])
	}
	return s
}
