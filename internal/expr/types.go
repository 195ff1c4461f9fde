package expr

import (
	"errors"
	"fmt"
	"strings"
)

// Type is the static type of an expression.
type Type uint8

// The types. Int is a 64-bit integer (FCSTM int, JSON integer), Real a
// float64 (FCSTM float; Z3 Real in the symbolic engines), Bool a truth
// value. String is only the type of a string literal, which is meaningful
// as an atom argument and nowhere else.
const (
	Invalid Type = iota
	Int
	Real
	Bool
	String
)

// String returns the type's name as users write it: int, float, bool,
// string.
func (t Type) String() string {
	switch t {
	case Int:
		return "int"
	case Real:
		return "float"
	case Bool:
		return "bool"
	case String:
		return "string"
	}
	return "invalid"
}

// IsNumeric reports whether t is Int or Real.
func (t Type) IsNumeric() bool { return t == Int || t == Real }

// AssignableTo reports whether a value of type t may be used where want is
// expected: the same type, or Int where Real is expected (promotion).
func (t Type) AssignableTo(want Type) bool { return t == want || t == Int && want == Real }

// join is the type of a mixed numeric operation: Real unless both are Int.
func join(a, b Type) Type {
	if a == Int && b == Int {
		return Int
	}
	return Real
}

// TypeError is a static typing error (or, from Eval, a dynamic one: an
// unknown variable, an operand of the wrong type). Error() renders
// "line:col: message".
type TypeError struct {
	Span Span
	Msg  string
}

func (e *TypeError) Error() string { return e.Span.Start.String() + ": " + e.Msg }

func typeErrorf(s Span, format string, args ...any) *TypeError {
	return &TypeError{s, fmt.Sprintf(format, args...)}
}

// Env supplies the names an expression may use.
type Env interface {
	// VarType returns the type of variable name, or false if there is none.
	VarType(name string) (Type, bool)
	// AtomType checks an atom call (its name and arguments) and returns its
	// result type. It may call Check on argument expressions.
	AtomType(call *AtomCall) (Type, error)
}

// Signature is the signature of a simple atom: positional arguments only,
// one per parameter. A String parameter takes a string literal; the other
// parameter types take an expression of an assignable type.
type Signature struct {
	Params []Type
	Result Type
}

// Table is a ready-made Env: variables by name and atoms by signature.
// Atoms whose arguments need more than a Signature (FBMCQ call filters,
// frame selectors) are bound by an Env of the caller's own.
type Table struct {
	Vars  map[string]Type
	Atoms map[string]Signature
}

// VarType implements Env.
func (t *Table) VarType(name string) (Type, bool) {
	ty, ok := t.Vars[name]
	return ty, ok
}

// AtomType implements Env.
func (t *Table) AtomType(c *AtomCall) (Type, error) {
	sig, ok := t.Atoms[c.Name]
	if !ok {
		return Invalid, typeErrorf(c.Loc, "unknown function %q", c.Name)
	}
	if err := CheckArgs(c, sig.Params, t); err != nil {
		return Invalid, err
	}
	return sig.Result, nil
}

// CheckArgs checks that c has exactly the positional arguments params
// describe, type-checking expression arguments in env.
func CheckArgs(c *AtomCall, params []Type, env Env) error {
	if len(c.Args) != len(params) {
		return typeErrorf(c.Loc, "%s takes %d argument(s), found %d", c.Name, len(params), len(c.Args))
	}
	for i, a := range c.Args {
		if a.Kind != ArgPositional {
			return typeErrorf(a.Loc, "%s takes positional arguments only", c.Name)
		}
		want := params[i]
		if want == String {
			if _, ok := a.Value.(*StringLit); !ok {
				return typeErrorf(a.Loc, "argument %d of %s must be a string literal", i+1, c.Name)
			}
			continue
		}
		got, err := Check(a.Value, env)
		if err != nil {
			return err
		}
		if !got.AssignableTo(want) {
			return typeErrorf(a.Loc, "argument %d of %s must be %s, found %s", i+1, c.Name, want, got)
		}
	}
	return nil
}

// Check type-checks e in env and returns its type. Numeric and boolean
// expressions never mix (docs/queries.md); an Int operand is promoted to Real
// where the other operand is Real. A string literal, "*" or a range is only
// valid as an atom argument.
func Check(e Expr, env Env) (Type, error) { return CheckTypes(e, env, nil) }

// CheckTypes is Check that also records the type of every node it checked
// in types (when not nil). Atom arguments are the atom's business (see
// Env.AtomType) and are not recorded.
func CheckTypes(e Expr, env Env, types map[Expr]Type) (Type, error) {
	c := checker{env: env, types: types}
	t, err := c.check(e)
	if err != nil {
		return Invalid, err
	}
	if t == String {
		return Invalid, typeErrorf(e.Span(), "a string is only allowed as an atom argument")
	}
	return t, nil
}

type checker struct {
	env   Env
	types map[Expr]Type
}

func (c *checker) check(e Expr) (Type, error) {
	t, err := c.node(e)
	if err == nil && c.types != nil {
		c.types[e] = t
	}
	return t, err
}

func (c *checker) node(e Expr) (Type, error) {
	switch n := e.(type) {
	case *IntLit:
		return Int, nil
	case *FloatLit, *Const:
		return Real, nil
	case *BoolLit:
		return Bool, nil
	case *StringLit:
		return String, nil
	case *Ident:
		if c.env != nil {
			if t, ok := c.env.VarType(n.Name); ok {
				return t, nil
			}
		}
		return Invalid, typeErrorf(n.Loc, "unknown variable %q", n.Name)
	case *Unary:
		return c.unary(n)
	case *Binary:
		return c.binary(n)
	case *Conditional:
		return c.conditional(n)
	case *FuncCall:
		t, err := c.operand(n.Arg, "argument of "+n.Fn.String(), isNumeric)
		if err != nil {
			return Invalid, err
		}
		return funcResult(n.Fn, t), nil
	case *AtomCall:
		if c.env == nil {
			return Invalid, typeErrorf(n.Loc, "unknown function %q", n.Name)
		}
		return c.env.AtomType(n)
	case *Wildcard:
		return Invalid, typeErrorf(n.Loc, `"*" is only allowed as an atom argument`)
	case *Range:
		return Invalid, typeErrorf(n.Loc, "a range is only allowed as an atom argument")
	case nil:
		return Invalid, typeErrorf(Span{}, "missing expression")
	}
	return Invalid, typeErrorf(e.Span(), "unknown expression node %T", e)
}

// funcResult is the result type of a math function (docs/fcstm.md): abs
// keeps its operand's type, ceil/floor/round/trunc/sign give Int, the rest
// give Real.
func funcResult(fn Func, arg Type) Type {
	switch fn {
	case Abs:
		return arg
	case Ceil, Floor, Round, Trunc, Sign:
		return Int
	}
	return Real
}

func isNumeric(t Type) bool { return t.IsNumeric() }
func isBool(t Type) bool    { return t == Bool }
func isInt(t Type) bool     { return t == Int }

// operand checks e and that its type satisfies ok; what names the operand
// in the error message.
func (c *checker) operand(e Expr, what string, ok func(Type) bool) (Type, error) {
	t, err := c.check(e)
	if err != nil {
		return Invalid, err
	}
	if ok(t) {
		return t, nil
	}
	want := "a numeric"
	switch {
	case ok(Bool):
		want = "a bool"
	case ok(Int) && !ok(Real):
		want = "an int"
	}
	msg := fmt.Sprintf("%s must be %s expression, found %s", what, want, t)
	if t == String {
		msg = fmt.Sprintf("%s must be %s expression; a string is only allowed as an atom argument", what, want)
	}
	return Invalid, typeErrorf(e.Span(), "%s", msg)
}

func (c *checker) unary(n *Unary) (Type, error) {
	if n.Op != Not && n.Op != Neg && n.Op != Plus {
		return Invalid, typeErrorf(n.Loc, "unknown unary operator %d", n.Op)
	}
	if n.Op != Not {
		return c.operand(n.X, fmt.Sprintf("operand of unary %q", n.Op.String()), isNumeric)
	}
	t, err := c.check(n.X)
	if err != nil {
		return Invalid, err
	}
	if t != Bool {
		hint := ""
		if t.IsNumeric() {
			hint = ` ("!" binds tighter than ==: to negate an equality write !(a == b) or a != b)`
		}
		return Invalid, typeErrorf(n.X.Span(), `operand of "!" must be a bool expression, found %s%s`, t, hint)
	}
	return Bool, nil
}

func (c *checker) binary(n *Binary) (Type, error) {
	switch {
	case opPrec(n.Op) == 0:
		return Invalid, typeErrorf(n.Loc, "unknown binary operator %d", n.Op)
	case n.Op == Eq || n.Op == Ne:
		return c.equality(n)
	case n.Op.IsLogical():
		return c.both(n, isBool, Bool)
	case n.Op.IsComparison():
		return c.both(n, isNumeric, Bool)
	case n.Op == Div:
		return c.both(n, isNumeric, Real)
	case n.Op == BitAnd || n.Op == BitOr || n.Op == BitXor || n.Op == Shl || n.Op == Shr:
		return c.both(n, isInt, Int)
	}
	x, err := c.operand(n.X, fmt.Sprintf("left operand of %q", n.Op.String()), isNumeric)
	if err != nil {
		return Invalid, err
	}
	y, err := c.operand(n.Y, fmt.Sprintf("right operand of %q", n.Op.String()), isNumeric)
	if err != nil {
		return Invalid, err
	}
	return join(x, y), nil
}

// both checks that both operands satisfy ok; the result type is result.
func (c *checker) both(n *Binary, ok func(Type) bool, result Type) (Type, error) {
	if _, err := c.operand(n.X, fmt.Sprintf("left operand of %q", n.Op.String()), ok); err != nil {
		return Invalid, err
	}
	if _, err := c.operand(n.Y, fmt.Sprintf("right operand of %q", n.Op.String()), ok); err != nil {
		return Invalid, err
	}
	return result, nil
}

// equality: == and != compare two numerics or two bools.
func (c *checker) equality(n *Binary) (Type, error) {
	x, err := c.check(n.X)
	if err != nil {
		// "p == x == 1" reads as "(p == x) == 1": the error is in the
		// inner comparison, the hint belongs to the chain.
		var te *TypeError
		if errors.As(err, &te) && isComparison(n.X) && strings.HasSuffix(te.Msg, neverMix) {
			te.Msg += mixHintText
		}
		return Invalid, err
	}
	y, err := c.check(n.Y)
	if err != nil {
		return Invalid, err
	}
	if x.IsNumeric() && y.IsNumeric() || x == Bool && y == Bool {
		return Bool, nil
	}
	hint := ""
	if isComparison(n.X) || isComparison(n.Y) {
		hint = mixHintText
	}
	return Invalid, typeErrorf(n.Loc, "%q compares %s with %s%s%s", n.Op.String(), x, y, neverMix, hint)
}

const (
	neverMix    = "; numeric and boolean expressions never mix"
	mixHintText = " (parenthesise the inner comparison)"
)

func (c *checker) conditional(n *Conditional) (Type, error) {
	if _, err := c.operand(n.Cond, "condition of \"?:\"", isBool); err != nil {
		return Invalid, err
	}
	a, err := c.check(n.Then)
	if err != nil {
		return Invalid, err
	}
	b, err := c.check(n.Else)
	if err != nil {
		return Invalid, err
	}
	switch {
	case a.IsNumeric() && b.IsNumeric():
		return join(a, b), nil
	case a == Bool && b == Bool:
		return Bool, nil
	}
	return Invalid, typeErrorf(n.Loc, "the branches of \"?:\" have types %s and %s; they must both be numeric or both bool", a, b)
}
