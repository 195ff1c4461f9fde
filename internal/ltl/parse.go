package ltl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/lineend"
)

// Vocabulary is what a formula may name: the model's states and events,
// and its variables with whether each is boolean.
type Vocabulary struct {
	States map[string]bool
	Events map[string]bool
	Vars   map[string]bool // name → boolean
	// Calls admits the atoms as FBMCQ writes them (docs/queries.md#ltl):
	// active("S") for the state atom, event("E") for the event atom and
	// var("x") compared with a constant, besides the forms above, so that
	// an FBMCQ query reaches this parser rather than a second one.
	Calls bool
}

// Error is a parse error at a line and column (both from 1, columns in
// characters) of the formula.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// maxDepth bounds the nesting of a formula, so that a hostile one cannot
// exhaust the stack of the recursive descent.
const maxDepth = 200

// Parse reads a formula. Precedence, loosest first: <->, -> (right
// associative), ||, &&, then U, R, W (right associative), then the prefix
// operators !, X, G, F ([] and <> are accepted for G and F).
func Parse(src string, voc *Vocabulary) (*Formula, error) {
	p := &parser{src: src, voc: voc}
	if err := p.lex(); err != nil {
		return nil, err
	}
	f, err := p.iff(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errAt(t.pos, "unexpected %s after the formula", t.describe())
	}
	return f, nil
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tQuoted
	tNumber
	tSym
	tAt
)

type token struct {
	kind tokKind
	text string // identifier, unquoted string, number or symbol
	pos  int
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of formula"
	case tQuoted:
		return strconv.Quote(t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

type parser struct {
	src  string
	voc  *Vocabulary
	toks []token
	at   int
}

var symbols = []string{"<->", "->", "&&", "||", "==", "!=", "<=", ">=", "[]", "<>", "!", "(", ")", "<", ">"}

func (p *parser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			i += w
		case r == utf8.RuneError && w == 1:
			return p.errAt(i, "invalid UTF-8")
		case r == '"':
			q, err := strconv.QuotedPrefix(s[i:])
			if err != nil {
				return p.errAt(i, "unterminated or malformed quoted name")
			}
			text, _ := strconv.Unquote(q)
			p.toks = append(p.toks, token{tQuoted, text, i})
			i += len(q)
		case r == '@':
			p.toks = append(p.toks, token{tAt, "@", i})
			i++
		case r == '-' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9', r >= '0' && r <= '9':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			p.toks = append(p.toks, token{tNumber, s[i:j], i})
			i = j
		case identChar(r, true):
			j := i
			for j < len(s) {
				r2, w2 := utf8.DecodeRuneInString(s[j:])
				if !identChar(r2, false) {
					break
				}
				j += w2
			}
			p.toks = append(p.toks, token{tIdent, s[i:j], i})
			i = j
		default:
			sym := ""
			for _, c := range symbols {
				if strings.HasPrefix(s[i:], c) {
					sym = c
					break
				}
			}
			if sym == "" {
				return p.errAt(i, "unexpected character %q", r)
			}
			p.toks = append(p.toks, token{tSym, sym, i})
			i += len(sym)
		}
	}
	p.toks = append(p.toks, token{tEOF, "", len(s)})
	return nil
}

func (p *parser) errAt(pos int, format string, args ...any) *Error {
	pos = max(0, min(pos, len(p.src)))
	line := 1 + lineend.Count(p.src[:pos])
	col := 1 + utf8.RuneCountInString(p.src[lineend.LineStart(p.src, pos):pos])
	return &Error{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) peek() token { return p.toks[p.at] }

func (p *parser) next() token {
	t := p.toks[p.at]
	if t.kind != tEOF {
		p.at++
	}
	return t
}

func (p *parser) isSym(text string) bool {
	t := p.peek()
	return t.kind == tSym && t.text == text
}

func (p *parser) deeper(depth int) error {
	if depth > maxDepth {
		return p.errAt(p.peek().pos, "formula nested deeper than %d", maxDepth)
	}
	return nil
}

func (p *parser) iff(depth int) (*Formula, error) {
	l, err := p.implies(depth)
	for err == nil && p.isSym("<->") {
		t := p.next()
		var r *Formula
		if r, err = p.implies(depth); err == nil {
			l = &Formula{Op: OpIff, L: l, R: r, Pos: t.pos}
		}
	}
	return l, err
}

func (p *parser) implies(depth int) (*Formula, error) {
	if err := p.deeper(depth); err != nil {
		return nil, err
	}
	l, err := p.or(depth)
	if err != nil || !p.isSym("->") {
		return l, err
	}
	t := p.next()
	r, err := p.implies(depth + 1)
	if err != nil {
		return nil, err
	}
	return &Formula{Op: OpImplies, L: l, R: r, Pos: t.pos}, nil
}

func (p *parser) or(depth int) (*Formula, error) {
	l, err := p.and(depth)
	for err == nil && p.isSym("||") {
		t := p.next()
		var r *Formula
		if r, err = p.and(depth); err == nil {
			l = &Formula{Op: OpOr, L: l, R: r, Pos: t.pos}
		}
	}
	return l, err
}

func (p *parser) and(depth int) (*Formula, error) {
	l, err := p.binary(depth)
	for err == nil && p.isSym("&&") {
		t := p.next()
		var r *Formula
		if r, err = p.binary(depth); err == nil {
			l = &Formula{Op: OpAnd, L: l, R: r, Pos: t.pos}
		}
	}
	return l, err
}

var binaryOps = map[string]Op{"U": OpUntil, "R": OpRelease, "W": OpWeakUntil}

func (p *parser) binary(depth int) (*Formula, error) {
	if err := p.deeper(depth); err != nil {
		return nil, err
	}
	l, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	t := p.peek()
	op, ok := binaryOps[t.text]
	if t.kind != tIdent || !ok {
		return l, nil
	}
	p.next()
	r, err := p.binary(depth + 1)
	if err != nil {
		return nil, err
	}
	return &Formula{Op: op, L: l, R: r, Pos: t.pos}, nil
}

var prefixOps = map[string]Op{"X": OpNext, "G": OpGlobally, "F": OpFinally, "[]": OpGlobally, "<>": OpFinally, "!": OpNot}

func (p *parser) unary(depth int) (*Formula, error) {
	if err := p.deeper(depth); err != nil {
		return nil, err
	}
	t := p.peek()
	if op, ok := prefixOps[t.text]; ok && (t.kind == tIdent || t.kind == tSym) {
		p.next()
		l, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &Formula{Op: op, L: l, Pos: t.pos}, nil
	}
	return p.primary(depth)
}

func (p *parser) primary(depth int) (*Formula, error) {
	t := p.next()
	switch {
	case t.kind == tSym && t.text == "(":
		f, err := p.iff(depth + 1)
		if err != nil {
			return nil, err
		}
		if !p.isSym(")") {
			return nil, p.errAt(p.peek().pos, "expected \")\" to close the \"(\" at %d:%d, found %s", p.errAt(t.pos, "").Line, p.errAt(t.pos, "").Col, p.peek().describe())
		}
		p.next()
		return f, nil
	case t.kind == tIdent && t.text == "true":
		return &Formula{Op: OpTrue, Pos: t.pos}, nil
	case t.kind == tIdent && t.text == "false":
		return &Formula{Op: OpFalse, Pos: t.pos}, nil
	case t.kind == tAt:
		return p.event(t)
	case t.kind == tQuoted:
		return p.state(t, t.text)
	case t.kind == tIdent && p.voc.Calls && p.isSym("(") && callAtoms[t.text]:
		return p.call(t)
	case t.kind == tIdent && !keywords[t.text]:
		return p.name(t)
	}
	return nil, p.errAt(t.pos, "expected a proposition, found %s", t.describe())
}

func (p *parser) event(at token) (*Formula, error) {
	t := p.next()
	if t.kind != tIdent && t.kind != tQuoted {
		return nil, p.errAt(t.pos, "expected an event name after \"@\", found %s", t.describe())
	}
	if !p.voc.Events[t.text] {
		return nil, p.errAt(t.pos, "unknown event %q", t.text)
	}
	return &Formula{Op: OpAtom, Atom: &Atom{Kind: LastEvent, Name: t.text}, Pos: at.pos}, nil
}

func (p *parser) state(t token, name string) (*Formula, error) {
	if !p.voc.States[name] {
		return nil, p.errAt(t.pos, "unknown state %q", name)
	}
	return &Formula{Op: OpAtom, Atom: &Atom{Kind: InState, Name: name}, Pos: t.pos}, nil
}

var compareOps = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// name is a bare identifier: a comparison when an operator follows, a
// boolean variable or a state otherwise.
func (p *parser) name(t token) (*Formula, error) {
	isBool, isVar := p.voc.Vars[t.text]
	if c := p.peek(); c.kind == tSym && compareOps[c.text] {
		if !isVar {
			return nil, p.errAt(t.pos, "unknown variable %q", t.text)
		}
		p.next()
		return p.compare(t, c, isBool)
	}
	switch {
	case isVar && p.voc.States[t.text]:
		return nil, p.errAt(t.pos, "%q is both a state and a variable: write \"%s\" for the state or %s == true for the variable", t.text, t.text, t.text)
	case isVar && isBool:
		return &Formula{Op: OpAtom, Atom: &Atom{Kind: Compare, Name: t.text, Cmp: "==", Value: 1, Bool: true}, Pos: t.pos}, nil
	case isVar:
		return nil, p.errAt(t.pos, "integer variable %q needs a comparison (%s > 0)", t.text, t.text)
	case p.voc.Events[t.text] && !p.voc.States[t.text]:
		return nil, p.errAt(t.pos, "%q is an event, not a state: write @%s for \"the last step took %s\"", t.text, t.text, t.text)
	}
	return p.state(t, t.text)
}

func (p *parser) compare(v, op token, isBool bool) (*Formula, error) {
	c := p.next()
	a := &Atom{Kind: Compare, Name: v.text, Cmp: op.text, Bool: isBool}
	switch {
	case isBool && c.kind == tIdent && (c.text == "true" || c.text == "false"):
		if op.text != "==" && op.text != "!=" {
			return nil, p.errAt(op.pos, "boolean %q compares with == or != only", v.text)
		}
		if c.text == "true" {
			a.Value = 1
		}
	case isBool:
		return nil, p.errAt(c.pos, "boolean %q compares with true or false, found %s", v.text, c.describe())
	case c.kind == tNumber:
		n, err := strconv.ParseInt(c.text, 10, 64)
		if err != nil || n > 1<<53-1 || n < -(1<<53-1) {
			return nil, p.errAt(c.pos, "%s is outside the exact integer range ±(2^53−1)", c.text)
		}
		a.Value = n
	default:
		return nil, p.errAt(c.pos, "expected an integer after %q, found %s", op.text, c.describe())
	}
	return &Formula{Op: OpAtom, Atom: a, Pos: v.pos}, nil
}

// callAtoms are the FBMCQ atoms a formula may call (Vocabulary.Calls).
var callAtoms = map[string]bool{"active": true, "event": true, "var": true}

// call reads active("S"), event("E") or var("x") CMP VALUE: the same
// atoms as "S", @E and x CMP VALUE, spelled as FBMCQ spells them.
func (p *parser) call(fn token) (*Formula, error) {
	p.next() // (
	arg := p.next()
	if arg.kind != tQuoted {
		return nil, p.errAt(arg.pos, "%s(...) takes one quoted name, found %s", fn.text, arg.describe())
	}
	if !p.isSym(")") {
		return nil, p.errAt(p.peek().pos, "expected \")\" after the name in %s(...), found %s", fn.text, p.peek().describe())
	}
	p.next()
	switch fn.text {
	case "active":
		f, err := p.state(arg, arg.text)
		if f != nil {
			f.Pos = fn.pos
		}
		return f, err
	case "event":
		if !p.voc.Events[arg.text] {
			return nil, p.errAt(arg.pos, "unknown event %q", arg.text)
		}
		return &Formula{Op: OpAtom, Atom: &Atom{Kind: LastEvent, Name: arg.text}, Pos: fn.pos}, nil
	}
	isBool, isVar := p.voc.Vars[arg.text]
	if !isVar {
		return nil, p.errAt(arg.pos, "unknown variable %q", arg.text)
	}
	c := p.peek()
	if c.kind != tSym || !compareOps[c.text] {
		return nil, p.errAt(c.pos, "var(%q) needs a comparison with a constant (var(%q) > 0), found %s", arg.text, arg.text, c.describe())
	}
	p.next()
	f, err := p.compare(token{tIdent, arg.text, arg.pos}, c, isBool)
	if f != nil {
		f.Pos = fn.pos
	}
	return f, err
}
