package expr

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// SyntaxError is a parse error; Error() renders "line:col: message".
type SyntaxError struct {
	Span Span
	Msg  string
}

func (e *SyntaxError) Error() string { return e.Span.Start.String() + ": " + e.Msg }

// Operator precedence, loosest to tightest (docs/fcstm.md, merged into one
// table; see doc.go). The printer uses the same numbers.
const (
	precCond    = 1  // (c) ? a : b
	precImplies = 2  // => implies      right
	precOr      = 3  // || or           left
	precXor     = 4  // xor             left
	precAnd     = 5  // && and          left
	precEq      = 6  // == != iff       left
	precNot     = 7  // ! not           prefix
	precRel     = 8  // < <= > >=       non-associative
	precBitOr   = 9  // |               left
	precBitXor  = 10 // ^               left
	precBitAnd  = 11 // &               left
	precShift   = 12 // << >>           left
	precAdd     = 13 // + -             left
	precMul     = 14 // * / %           left
	precPow     = 15 // **              right
	precUnary   = 16 // + -             prefix
	precPrimary = 17
)

// Limits that keep every recursive walk (parser, printer, checker,
// evaluator) far from Go's stack limit on hostile input. maxHeight bounds
// the tree (long left-associative chains included); maxNesting bounds the
// parser's recursion (parentheses, prefix operators, right-associative
// chains, conditionals, calls). Format puts at most one pair of
// parentheses around a node, so the text it prints for a tree of height h
// nests at most 2h deep: with maxNesting >= 2*maxHeight every parsed tree
// prints to text that parses again.
const (
	maxHeight  = 5000
	maxNesting = 2*maxHeight + 10
)

var symbolOps = map[Kind]Op{
	IMPLIES: Implies, LOR: Lor, LAND: Land, EQL: Eq, NEQ: Ne,
	LSS: Lt, LEQ: Le, GTR: Gt, GEQ: Ge, OR: BitOr, XOR: BitXor, AND: BitAnd,
	SHL: Shl, SHR: Shr, ADD: Add, SUB: Sub, MUL: Mul, QUO: Div, REM: Mod, POW: Pow,
}

// opPrec is the precedence of a binary operator.
func opPrec(op Op) int {
	switch op {
	case Implies:
		return precImplies
	case Lor:
		return precOr
	case Lxor:
		return precXor
	case Land:
		return precAnd
	case Eq, Ne, Iff:
		return precEq
	case Lt, Le, Gt, Ge:
		return precRel
	case BitOr:
		return precBitOr
	case BitXor:
		return precBitXor
	case BitAnd:
		return precBitAnd
	case Shl, Shr:
		return precShift
	case Add, Sub:
		return precAdd
	case Mul, Div, Mod:
		return precMul
	case Pow:
		return precPow
	}
	return 0
}

// binaryOp returns the binary operator token t spells, or BadOp.
func binaryOp(t Token) Op {
	if t.Kind == IDENT {
		if op := wordOps[t.Text]; op != Not {
			return op
		}
		return BadOp
	}
	return symbolOps[t.Kind]
}

func isNotToken(t Token) bool { return t.Kind == NOT || t.Kind == IDENT && t.Text == "not" }

// Parser parses expressions from a token stream. An embedding parser (FCSTM,
// FBMCQ, RSC) can use it as its token cursor: Peek and Next walk the tokens,
// ParseExpr reads one expression and leaves the first token after it as the
// lookahead.
type Parser struct {
	sc        *Scanner
	tok       Token   // lookahead
	ahead     []Token // a second lookahead token, when one was needed
	prevEnd   Pos     // end of the last consumed token
	depth     int
	lastParen Expr // the node most recently closed by ")"
}

// NewParser returns a parser reading tokens from sc.
func NewParser(sc *Scanner) *Parser {
	p := &Parser{sc: sc}
	p.tok = sc.Scan()
	p.prevEnd = p.tok.Span.Start
	return p
}

// Peek returns the lookahead token without consuming it.
func (p *Parser) Peek() Token { return p.tok }

// Next consumes the lookahead token and returns it.
func (p *Parser) Next() Token {
	t := p.tok
	p.prevEnd = t.Span.End
	if len(p.ahead) > 0 {
		p.tok, p.ahead = p.ahead[0], p.ahead[:0]
	} else {
		p.tok = p.sc.Scan()
	}
	return t
}

// End returns the position just after the last consumed token.
func (p *Parser) End() Pos { return p.prevEnd }

// peek2 returns the token after the lookahead.
func (p *Parser) peek2() Token {
	if len(p.ahead) == 0 {
		p.ahead = append(p.ahead, p.sc.Scan())
	}
	return p.ahead[0]
}

// Expect consumes the lookahead if it has kind k, and otherwise returns a
// SyntaxError "expected k, found ...".
func (p *Parser) Expect(k Kind) (Token, error) {
	if p.tok.Kind != k {
		return p.tok, p.unexpected(fmt.Sprintf("%q", k.String()))
	}
	return p.Next(), nil
}

// unexpected builds "expected what, found <lookahead>"; a lexical error in
// the lookahead is reported as such.
func (p *Parser) unexpected(what string) *SyntaxError {
	if p.tok.Kind == ILLEGAL {
		return &SyntaxError{p.tok.Span, p.tok.Err}
	}
	return &SyntaxError{p.tok.Span, fmt.Sprintf("expected %s, found %s", what, p.tok.describe())}
}

type bailout struct{ err *SyntaxError }

func (p *Parser) fail(err *SyntaxError) { panic(bailout{err}) }

func (p *Parser) failf(s Span, format string, args ...any) {
	p.fail(&SyntaxError{s, fmt.Sprintf(format, args...)})
}

func (p *Parser) expect(k Kind, what string) Token {
	if p.tok.Kind != k {
		p.fail(p.unexpected(what))
	}
	return p.Next()
}

func (p *Parser) enter() {
	p.depth++
	if p.depth > maxNesting {
		p.failf(p.tok.Span, "expression nested too deeply (more than %d levels)", maxNesting)
	}
}

func (p *Parser) leave() { p.depth-- }

func (p *Parser) height(s Span, hs ...int) int {
	h := 0
	for _, x := range hs {
		h = max(h, x)
	}
	if h+1 > maxHeight {
		p.failf(s, "expression nested too deeply (more than %d levels)", maxHeight)
	}
	return h + 1
}

// ParseExpr parses one expression starting at the lookahead. It stops at the
// first token that cannot continue the expression, which stays the
// lookahead (Peek).
func (p *Parser) ParseExpr() (e Expr, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			e, err = nil, b.err
		}
	}()
	p.depth = 0
	e, _ = p.expr()
	return e, nil
}

// ParseExpr parses src, which must hold exactly one expression.
func ParseExpr(src string) (Expr, error) {
	p := NewParser(NewScanner(src, 0))
	e, err := p.ParseExpr()
	if err != nil {
		return nil, err
	}
	if p.tok.Kind != EOF {
		return nil, p.trailing()
	}
	return e, nil
}

// ParseExprAt parses one expression that starts at byte offset off of src
// (positions are relative to all of src) and returns it with the byte
// offset just after its last token. Whatever follows is not examined beyond
// the one token that ends the expression.
func ParseExprAt(src string, off int) (Expr, int, error) {
	p := NewParser(NewScannerAt(src, off, 0))
	e, err := p.ParseExpr()
	if err != nil {
		return nil, off, err
	}
	return e, p.prevEnd.Offset, nil
}

// trailing reports a token left over after a complete expression.
func (p *Parser) trailing() *SyntaxError {
	switch p.tok.Kind {
	case ILLEGAL:
		return &SyntaxError{p.tok.Span, p.tok.Err}
	case ASSIGN:
		return &SyntaxError{p.tok.Span, `unexpected "=" after expression (comparison is "==")`}
	case QUESTION:
		return &SyntaxError{p.tok.Span, `the condition of "?:" must be in parentheses: (c) ? a : b`}
	}
	return p.unexpected("an operator or end of input")
}

// expr parses a full expression: a conditional or an implication chain.
func (p *Parser) expr() (Expr, int) {
	x, h := p.binary(precImplies)
	if p.tok.Kind != QUESTION {
		return x, h
	}
	if x != p.lastParen {
		p.failf(x.Span(), `the condition of "?:" must be in parentheses: (c) ? a : b`)
	}
	p.Next()
	p.enter()
	then, ht := p.expr()
	p.expect(COLON, `":" of the conditional expression`)
	els, he := p.expr()
	p.leave()
	s := Span{x.Span().Start, els.Span().End}
	return &Conditional{Loc: s, Cond: x, Then: then, Else: els}, p.height(s, h, ht, he)
}

// binary parses an expression whose binary operators all bind at least as
// tightly as min (precedence climbing).
func (p *Parser) binary(min int) (Expr, int) {
	x, h := p.operand(min)
	for {
		op := binaryOp(p.tok)
		prec := opPrec(op)
		if op == BadOp || prec < min {
			return x, h
		}
		p.Next()
		var y Expr
		var hy int
		if op == Pow || op == Implies { // right-associative
			p.enter()
			y, hy = p.binary(prec)
			p.leave()
		} else {
			y, hy = p.binary(prec + 1)
		}
		s := Span{x.Span().Start, y.Span().End}
		x, h = &Binary{Loc: s, Op: op, X: x, Y: y}, p.height(s, h, hy)
		if prec == precRel && opPrec(binaryOp(p.tok)) == precRel {
			p.failf(p.tok.Span, "comparisons cannot be chained; combine them with &&")
		}
	}
}

// operand parses a negation ("!" / "not", which binds looser than the
// comparisons it usually negates) or a unary expression.
func (p *Parser) operand(min int) (Expr, int) {
	t := p.tok
	if !isNotToken(t) {
		return p.unary()
	}
	if min > precNot {
		p.failf(t.Span, "%q cannot be an operand here; put the negation in parentheses", t.Text)
	}
	p.Next()
	p.enter()
	x, h := p.binary(precNot)
	p.leave()
	s := Span{t.Span.Start, x.Span().End}
	return &Unary{Loc: s, Op: Not, X: x}, p.height(s, h)
}

// unary parses prefix signs, which bind tighter than "**": -2 ** 2 is
// (-2) ** 2 (docs/fcstm.md).
func (p *Parser) unary() (Expr, int) {
	t := p.tok
	if t.Kind != ADD && t.Kind != SUB {
		return p.primary()
	}
	p.Next()
	p.enter()
	x, h := p.unary()
	p.leave()
	op := Neg
	if t.Kind == ADD {
		op = Plus
	}
	s := Span{t.Span.Start, x.Span().End}
	return &Unary{Loc: s, Op: op, X: x}, p.height(s, h)
}

func (p *Parser) primary() (Expr, int) {
	t := p.tok
	switch t.Kind {
	case INT:
		p.Next()
		v, b := p.intValue(t)
		return &IntLit{Loc: t.Span, Value: v, Big: b}, 1
	case FLOAT:
		p.Next()
		v, err := strconv.ParseFloat(t.Text, 64)
		if err != nil && (math.IsInf(v, 0) || !errors.Is(err, strconv.ErrRange)) {
			p.failf(t.Span, "float literal %s out of range", t.Text)
		}
		return &FloatLit{Loc: t.Span, Value: v}, 1
	case STRING:
		p.Next()
		return &StringLit{Loc: t.Span, Value: t.Value}, 1
	case LPAREN:
		p.Next()
		p.enter()
		x, h := p.expr()
		p.leave()
		closing := p.expect(RPAREN, `")"`)
		setSpan(x, Span{t.Span.Start, closing.Span.End})
		p.lastParen = x
		return x, h
	case IDENT:
		return p.word()
	}
	p.fail(p.unexpected("an expression"))
	return nil, 0
}

// intValue returns an integer literal's value: an int64, or a big.Int when
// it does not fit.
func (p *Parser) intValue(t Token) (int64, *big.Int) {
	text, base := t.Text, 10
	if len(text) > 1 && (text[1] == 'x' || text[1] == 'X') {
		text, base = text[2:], 16
	}
	if v, err := strconv.ParseInt(text, base, 64); err == nil {
		return v, nil
	}
	// A digit holds at most 4 bits: refuse long literals before parsing.
	b, ok := new(big.Int).SetString(text, base)
	if !ok || len(text) > MaxIntBits || b.BitLen() > MaxIntBits {
		p.failf(t.Span, "integer literal %s is too large (over %d bits)", shortText(t.Text), MaxIntBits)
		return 0, nil
	}
	return 0, b
}

// shortText abbreviates a long token for a message.
func shortText(s string) string {
	if len(s) > 40 {
		return s[:20] + "…" + s[len(s)-10:]
	}
	return s
}

// word parses a primary that starts with an identifier: a boolean literal,
// a constant, a math function call, an atom call or a variable.
func (p *Parser) word() (Expr, int) {
	t := p.tok
	if b, ok := boolWords[t.Text]; ok {
		p.Next()
		return &BoolLit{Loc: t.Span, Value: b}, 1
	}
	if _, ok := constValues[t.Text]; ok {
		p.Next()
		return &Const{Loc: t.Span, Name: t.Text}, 1
	}
	if _, ok := wordOps[t.Text]; ok {
		p.fail(p.unexpected("an expression"))
	}
	if fn, ok := LookupFunc(t.Text); ok {
		return p.funcCall(fn)
	}
	p.Next()
	if p.tok.Kind == LPAREN {
		return p.atomCall(t)
	}
	return &Ident{Loc: t.Span, Name: t.Text}, 1
}

func (p *Parser) funcCall(fn Func) (Expr, int) {
	name := p.Next()
	p.expect(LPAREN, fmt.Sprintf(`"(" after %s`, fn))
	p.enter()
	x, h := p.expr()
	p.leave()
	if p.tok.Kind == COMMA {
		p.failf(p.tok.Span, "%s takes exactly one argument", fn)
	}
	closing := p.expect(RPAREN, `")"`)
	s := Span{name.Span.Start, closing.Span.End}
	return &FuncCall{Loc: s, Fn: fn, Arg: x}, p.height(s, h)
}

// atomCall parses name(arg, ...); the name has been consumed.
func (p *Parser) atomCall(name Token) (Expr, int) {
	p.Next() // (
	p.enter()
	defer p.leave()
	call := &AtomCall{Name: name.Text}
	h := 0
	if p.tok.Kind != RPAREN {
		for {
			a, ha := p.arg()
			call.Args = append(call.Args, a)
			h = max(h, ha)
			if p.tok.Kind != COMMA {
				break
			}
			p.Next()
		}
	}
	closing := p.expect(RPAREN, `"," or ")" in the argument list`)
	call.Loc = Span{name.Span.Start, closing.Span.End}
	return call, p.height(call.Loc, h)
}

// arg parses one atom argument: "name=value", "where cond" or a value.
func (p *Parser) arg() (Arg, int) {
	t := p.tok
	if t.Kind == IDENT && !isReservedWord(t.Text) {
		next := p.peek2().Kind
		if next == ASSIGN {
			p.Next()
			p.Next()
			v, h := p.argValue()
			return Arg{Loc: Span{t.Span.Start, v.Span().End}, Kind: ArgNamed, Name: t.Text, Value: v}, h
		}
		if t.Text == "where" && next != COMMA && next != RPAREN {
			p.Next()
			v, h := p.expr()
			return Arg{Loc: Span{t.Span.Start, v.Span().End}, Kind: ArgWhere, Value: v}, h
		}
	}
	v, h := p.argValue()
	return Arg{Loc: v.Span(), Kind: ArgPositional, Value: v}, h
}

// argValue parses "*", a range "[e]..[e]" or an expression.
func (p *Parser) argValue() (Expr, int) {
	t := p.tok
	if t.Kind == MUL {
		p.Next()
		return &Wildcard{Loc: t.Span}, 1
	}
	var lo Expr
	h := 0
	if t.Kind != DOTDOT {
		lo, h = p.expr()
		if p.tok.Kind != DOTDOT {
			return lo, h
		}
	}
	dots := p.Next()
	r := &Range{Lo: lo, Loc: dots.Span}
	if lo != nil {
		r.Loc.Start = lo.Span().Start
	}
	if p.tok.Kind != COMMA && p.tok.Kind != RPAREN {
		var hh int
		r.Hi, hh = p.expr()
		r.Loc.End = r.Hi.Span().End
		h = max(h, hh)
	}
	return r, p.height(r.Loc, h)
}

// setSpan widens a node's span to include the parentheses around it.
func setSpan(e Expr, s Span) {
	switch n := e.(type) {
	case *IntLit:
		n.Loc = s
	case *FloatLit:
		n.Loc = s
	case *BoolLit:
		n.Loc = s
	case *StringLit:
		n.Loc = s
	case *Const:
		n.Loc = s
	case *Ident:
		n.Loc = s
	case *Unary:
		n.Loc = s
	case *Binary:
		n.Loc = s
	case *Conditional:
		n.Loc = s
	case *FuncCall:
		n.Loc = s
	case *AtomCall:
		n.Loc = s
	}
}

// describeExpr is a short rendering of e for error messages.
func describeExpr(e Expr) string {
	s := Format(e)
	if len(s) > 40 {
		s = strings.TrimSpace(s[:37]) + "..."
	}
	return s
}
