package expr

import (
	"math"
	"math/big"
	"slices"
)

// Expr is an expression node. Every node records its source span in Loc;
// the span of a parenthesised expression includes its parentheses. Nodes
// built by code may leave Loc zero.
type Expr interface {
	Span() Span
	exprNode()
}

// IntLit is an integer literal (decimal or hexadecimal) of any size up to
// MaxIntBits bits. Value holds it when it fits in int64; otherwise Big
// holds it and Value is 0, so code that reads Value must check Big first.
// The parser never produces a negative literal: "-5" is Unary{Neg,
// IntLit{5}}.
type IntLit struct {
	Loc   Span
	Value int64
	Big   *big.Int // nil unless the literal is outside int64
}

// Int64 returns the literal's value and whether it fits in int64.
func (e *IntLit) Int64() (int64, bool) { return e.Value, e.Big == nil }

// BigInt returns the literal's value as a new big.Int.
func (e *IntLit) BigInt() *big.Int {
	if e.Big != nil {
		return new(big.Int).Set(e.Big)
	}
	return big.NewInt(e.Value)
}

// FloatLit is a float literal; the parser only produces finite,
// non-negative values.
type FloatLit struct {
	Loc   Span
	Value float64
}

// BoolLit is true/True/TRUE or false/False/FALSE.
type BoolLit struct {
	Loc   Span
	Value bool
}

// StringLit is a quoted string; it is only meaningful as an atom argument
// (active("Root.A")). Value is the decoded text.
type StringLit struct {
	Loc   Span
	Value string
}

// Const is one of the float constants pi, E and tau.
type Const struct {
	Loc  Span
	Name string // "pi", "E" or "tau"
}

// Ident is a variable reference (or, in FBMCQ, the bare atom "cycle";
// binding is the caller's business).
type Ident struct {
	Loc  Span
	Name string
}

// Unary is a prefix operation: Neg, Plus or Not. Plus is kept (not
// folded away) because FBMCQ step selectors give "+2" its own meaning.
type Unary struct {
	Loc Span
	Op  Op
	X   Expr
}

// Binary is an infix operation.
type Binary struct {
	Loc  Span
	Op   Op
	X, Y Expr
}

// Conditional is "(Cond) ? Then : Else"; only the selected branch is
// evaluated.
type Conditional struct {
	Loc              Span
	Cond, Then, Else Expr
}

// FuncCall is a call of one of the built-in unary math functions.
type FuncCall struct {
	Loc Span
	Fn  Func
	Arg Expr
}

// AtomCall is a call of any other name: an observation atom such as
// active("S"), var("x"), event("e", current), called("A", step=0,
// where x > 0). The expression package only parses and prints atoms; the
// caller binds them (Env.AtomType, Valuation.Atom).
type AtomCall struct {
	Loc  Span
	Name string
	Args []Arg
}

// ArgKind says how an atom argument is written.
type ArgKind uint8

// Argument forms.
const (
	ArgPositional ArgKind = iota // value
	ArgNamed                     // name=value
	ArgWhere                     // where cond
)

// Arg is one argument of an AtomCall. Value is an expression, a *Wildcard
// ("*") or a *Range ("a..b", "..b", "a..", ".."). Name is set for ArgNamed.
type Arg struct {
	Loc   Span
	Kind  ArgKind
	Name  string
	Value Expr
}

// Wildcard is "*" as an atom argument (a step selector).
type Wildcard struct {
	Loc Span
}

// Range is "Lo..Hi" as an atom argument; either end may be nil.
type Range struct {
	Loc    Span
	Lo, Hi Expr
}

func (e *IntLit) Span() Span      { return e.Loc }
func (e *FloatLit) Span() Span    { return e.Loc }
func (e *BoolLit) Span() Span     { return e.Loc }
func (e *StringLit) Span() Span   { return e.Loc }
func (e *Const) Span() Span       { return e.Loc }
func (e *Ident) Span() Span       { return e.Loc }
func (e *Unary) Span() Span       { return e.Loc }
func (e *Binary) Span() Span      { return e.Loc }
func (e *Conditional) Span() Span { return e.Loc }
func (e *FuncCall) Span() Span    { return e.Loc }
func (e *AtomCall) Span() Span    { return e.Loc }
func (e *Wildcard) Span() Span    { return e.Loc }
func (e *Range) Span() Span       { return e.Loc }

func (*IntLit) exprNode()      {}
func (*FloatLit) exprNode()    {}
func (*BoolLit) exprNode()     {}
func (*StringLit) exprNode()   {}
func (*Const) exprNode()       {}
func (*Ident) exprNode()       {}
func (*Unary) exprNode()       {}
func (*Binary) exprNode()      {}
func (*Conditional) exprNode() {}
func (*FuncCall) exprNode()    {}
func (*AtomCall) exprNode()    {}
func (*Wildcard) exprNode()    {}
func (*Range) exprNode()       {}

// Op is a unary or binary operator.
type Op uint8

// Operators. Word and symbol spellings share one Op ("and" and "&&" are
// both Land); the printer uses the symbol where there is one.
const (
	BadOp Op = iota
	// unary
	Neg  // -x
	Plus // +x
	Not  // !x, not x
	// numeric binary
	Add    // +
	Sub    // -
	Mul    // *
	Div    // /  (true division)
	Mod    // %  (floored modulo)
	Pow    // **
	BitAnd // &
	BitOr  // |
	BitXor // ^
	Shl    // <<
	Shr    // >>
	// comparisons
	Eq // ==
	Ne // !=
	Lt // <
	Le // <=
	Gt // >
	Ge // >=
	// boolean binary
	Land    // &&, and
	Lor     // ||, or
	Lxor    // xor
	Implies // =>, implies
	Iff     // iff
)

var opText = [...]string{
	BadOp: "?", Neg: "-", Plus: "+", Not: "!",
	Add: "+", Sub: "-", Mul: "*", Div: "/", Mod: "%", Pow: "**",
	BitAnd: "&", BitOr: "|", BitXor: "^", Shl: "<<", Shr: ">>",
	Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">=",
	Land: "&&", Lor: "||", Lxor: "xor", Implies: "=>", Iff: "iff",
}

// String returns the canonical spelling of the operator.
func (op Op) String() string {
	if int(op) < len(opText) {
		return opText[op]
	}
	return "?"
}

// IsComparison reports whether op is one of == != < <= > >=.
func (op Op) IsComparison() bool { return op >= Eq && op <= Ge }

// IsLogical reports whether op is a boolean connective (&& || xor => iff).
func (op Op) IsLogical() bool { return op >= Land && op <= Iff }

// Func is a built-in unary math function (docs/fcstm.md).
type Func uint8

// The math functions.
const (
	BadFunc Func = iota
	Sin
	Cos
	Tan
	Asin
	Acos
	Atan
	Sinh
	Cosh
	Tanh
	Asinh
	Acosh
	Atanh
	Sqrt
	Cbrt
	Exp
	Log
	Log10
	Log2
	Log1p
	Abs
	Ceil
	Floor
	Round
	Trunc
	Sign
)

var funcNames = [...]string{
	BadFunc: "?", Sin: "sin", Cos: "cos", Tan: "tan", Asin: "asin", Acos: "acos",
	Atan: "atan", Sinh: "sinh", Cosh: "cosh", Tanh: "tanh", Asinh: "asinh",
	Acosh: "acosh", Atanh: "atanh", Sqrt: "sqrt", Cbrt: "cbrt", Exp: "exp",
	Log: "log", Log10: "log10", Log2: "log2", Log1p: "log1p", Abs: "abs",
	Ceil: "ceil", Floor: "floor", Round: "round", Trunc: "trunc", Sign: "sign",
}

// String returns the function's name.
func (f Func) String() string {
	if int(f) < len(funcNames) {
		return funcNames[f]
	}
	return "?"
}

// LookupFunc returns the math function called name.
func LookupFunc(name string) (Func, bool) {
	for f := Sin; f <= Sign; f++ {
		if funcNames[f] == name {
			return f, true
		}
	}
	return BadFunc, false
}

// constValues are the values of pi, E and tau (Python's math constants).
var constValues = map[string]float64{"pi": math.Pi, "E": math.E, "tau": 2 * math.Pi}

// boolWords are the spellings of the boolean literals.
var boolWords = map[string]bool{
	"true": true, "True": true, "TRUE": true,
	"false": false, "False": false, "FALSE": false,
}

// wordOps are the word spellings of operators.
var wordOps = map[string]Op{
	"and": Land, "or": Lor, "not": Not, "xor": Lxor, "implies": Implies, "iff": Iff,
}

// IsWordOperator reports whether name spells an operator (and or not xor
// implies iff): such a word is followed by an operand, never by a call's
// argument list or a binary operator.
func IsWordOperator(name string) bool {
	_, ok := wordOps[name]
	return ok
}

// IsReserved reports whether name is reserved by the expression language
// and so cannot be a variable: the word operators (and or not xor implies
// iff), the boolean literals, pi/E/tau and the math function names. Front
// ends add their own keywords (state, event, ...).
func IsReserved(name string) bool { return isReservedWord(name) }

func isReservedWord(name string) bool {
	_, b := boolWords[name]
	_, op := wordOps[name]
	_, c := constValues[name]
	_, f := LookupFunc(name)
	return b || op || c || f
}

// Inspect traverses e in depth-first order: it calls f(e); if that returns
// true it visits e's children (atom arguments included), in source order.
func Inspect(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch n := e.(type) {
	case *Unary:
		Inspect(n.X, f)
	case *Binary:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *Conditional:
		Inspect(n.Cond, f)
		Inspect(n.Then, f)
		Inspect(n.Else, f)
	case *FuncCall:
		Inspect(n.Arg, f)
	case *AtomCall:
		for _, a := range n.Args {
			Inspect(a.Value, f)
		}
	case *Range:
		Inspect(n.Lo, f)
		Inspect(n.Hi, f)
	}
}

// FreeVars returns the names of the variables e reads, sorted and without
// duplicates. Identifiers inside atom arguments (call filters, frame
// selectors such as "current") are not included: what they mean is the
// atom's business.
func FreeVars(e Expr) []string {
	seen := map[string]bool{}
	var out []string
	Inspect(e, func(n Expr) bool {
		switch n := n.(type) {
		case *Ident:
			if !seen[n.Name] {
				seen[n.Name] = true
				out = append(out, n.Name)
			}
		case *AtomCall:
			return false
		}
		return true
	})
	slices.Sort(out)
	return out
}

// Atoms returns the atom calls in e, outermost first in source order
// (atoms nested in another atom's arguments follow their parent).
func Atoms(e Expr) []*AtomCall {
	var out []*AtomCall
	Inspect(e, func(n Expr) bool {
		if a, ok := n.(*AtomCall); ok {
			out = append(out, a)
		}
		return true
	})
	return out
}

// Funcs returns the distinct math functions e calls, in first-use order.
func Funcs(e Expr) []Func {
	var out []Func
	Inspect(e, func(n Expr) bool {
		if c, ok := n.(*FuncCall); ok && !containsFunc(out, c.Fn) {
			out = append(out, c.Fn)
		}
		return true
	})
	return out
}

func containsFunc(fs []Func, f Func) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// Equal reports whether a and b are the same tree, ignoring source spans.
// Float literals compare by bit pattern.
func Equal(a, b Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case *IntLit:
		y, ok := b.(*IntLit)
		return ok && x.BigInt().Cmp(y.BigInt()) == 0
	case *FloatLit:
		y, ok := b.(*FloatLit)
		return ok && math.Float64bits(x.Value) == math.Float64bits(y.Value)
	case *BoolLit:
		y, ok := b.(*BoolLit)
		return ok && x.Value == y.Value
	case *StringLit:
		y, ok := b.(*StringLit)
		return ok && x.Value == y.Value
	case *Const:
		y, ok := b.(*Const)
		return ok && x.Name == y.Name
	case *Ident:
		y, ok := b.(*Ident)
		return ok && x.Name == y.Name
	case *Wildcard:
		_, ok := b.(*Wildcard)
		return ok
	}
	return equalComposite(a, b)
}

func equalComposite(a, b Expr) bool {
	switch x := a.(type) {
	case *Unary:
		y, ok := b.(*Unary)
		return ok && x.Op == y.Op && Equal(x.X, y.X)
	case *Binary:
		y, ok := b.(*Binary)
		return ok && x.Op == y.Op && Equal(x.X, y.X) && Equal(x.Y, y.Y)
	case *Conditional:
		y, ok := b.(*Conditional)
		return ok && Equal(x.Cond, y.Cond) && Equal(x.Then, y.Then) && Equal(x.Else, y.Else)
	case *FuncCall:
		y, ok := b.(*FuncCall)
		return ok && x.Fn == y.Fn && Equal(x.Arg, y.Arg)
	case *Range:
		y, ok := b.(*Range)
		return ok && Equal(x.Lo, y.Lo) && Equal(x.Hi, y.Hi)
	case *AtomCall:
		y, ok := b.(*AtomCall)
		if !ok || x.Name != y.Name || len(x.Args) != len(y.Args) {
			return false
		}
		for i, a := range x.Args {
			c := y.Args[i]
			if a.Kind != c.Kind || a.Name != c.Name || !Equal(a.Value, c.Value) {
				return false
			}
		}
		return true
	}
	return false
}
