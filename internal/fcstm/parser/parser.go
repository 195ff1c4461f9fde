package parser

import (
	"errors"
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// Limits on hostile input: nesting of states and of if blocks. Deeper
// input is refused with E_LIMIT instead of exhausting the stack.
const (
	maxStateDepth = 256
	maxIfDepth    = 256
)

// keywords are the words of FCSTM's grammar (docs/fcstm.md); with the
// expression language's reserved words (expr.IsReserved: pi E tau, the
// math function names, the word operators and boolean literals) they
// cannot name a state, event, variable, action or import alias.
var keywords = map[string]bool{
	"import": true, "def": true, "event": true, "as": true, "named": true,
	"pseudo": true, "state": true, "enter": true, "exit": true, "during": true,
	"before": true, "after": true, "abstract": true, "ref": true, "effect": true,
	"if": true, "else": true, "int": true, "float": true,
}

// IsKeyword reports whether name is a word of FCSTM's grammar (not one of
// the expression language's reserved words): the formatter needs to tell
// "-" after a keyword (a sign) from "-" after a name (a subtraction).
func IsKeyword(name string) bool { return keywords[name] }

// IsReserved reports whether name cannot be used as an FCSTM name.
func IsReserved(name string) bool { return keywords[name] || expr.IsReserved(name) }

// Parse parses one FCSTM file. path is used in error positions only.
func Parse(path, src string) (f *ast.File, err error) {
	p := &parser{file: path, src: src, names: map[string]bool{}}
	p.reset(0, 1)
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			f, err = nil, b.err
		}
	}()
	return p.parseFile(), nil
}

type parser struct {
	names   map[string]bool // names already checked against IsReserved, with the answer
	file    string
	src     string
	p       *expr.Parser
	depth   int // state nesting
	ifDepth int
}

type bailout struct{ err *ast.Error }

// reset restarts the token stream at byte offset off, which is on line
// (after the import sub-language has been lexed by hand, within a line).
func (p *parser) reset(off, line int) {
	p.p = expr.NewParser(expr.NewScannerAtLine(p.src, off, line, expr.ScanDocs))
}

func (p *parser) peek() expr.Token { return p.p.Peek() }
func (p *parser) next() expr.Token { return p.p.Next() }

func (p *parser) errAt(code string, pos ast.Pos, format string, args ...any) *ast.Error {
	return &ast.Error{Code: code, Msg: fmt.Sprintf(format, args...), File: p.file, Pos: pos, Src: p.src}
}

func (p *parser) failAt(pos ast.Pos, format string, args ...any) {
	panic(bailout{p.errAt("E_SYNTAX", pos, format, args...)})
}

// unexpected fails on the lookahead: "expected what, found …".
func (p *parser) unexpected(what string) {
	t := p.peek()
	if t.Kind == expr.ILLEGAL {
		p.failAt(t.Span.Start, "%s", t.Err)
	}
	p.failAt(t.Span.Start, "expected %s, found %s", what, describe(t))
}

func describe(t expr.Token) string {
	text := expr.Clip(t.Text) // never echo more than a piece of the token
	switch t.Kind {
	case expr.EOF:
		return "end of file"
	case expr.DOC:
		return "a documentation block (/* … */ may only precede a definition, state, event, transition or action)"
	case expr.IDENT:
		if IsReserved(t.Text) {
			return fmt.Sprintf("keyword %q", text)
		}
		return fmt.Sprintf("name %q", text)
	case expr.INT, expr.FLOAT:
		return "number " + text
	case expr.STRING:
		return "string " + text
	}
	return fmt.Sprintf("%q", text)
}

func (p *parser) is(k expr.Kind) bool { return p.peek().Kind == k }

func (p *parser) isWord(w string) bool {
	t := p.peek()
	return t.Kind == expr.IDENT && t.Text == w
}

func (p *parser) expect(k expr.Kind, what string) expr.Token {
	if !p.is(k) {
		p.unexpected(what)
	}
	return p.next()
}

func (p *parser) expectWord(w string) expr.Token {
	if !p.isWord(w) {
		p.unexpected(fmt.Sprintf("%q", w))
	}
	return p.next()
}

// name reads an identifier that names something (what: "a state name", …)
// and refuses reserved words at the token.
func (p *parser) name(what string) ast.Ident {
	t := p.peek()
	if t.Kind != expr.IDENT {
		p.unexpected(what)
	}
	reserved, seen := p.names[t.Text]
	if !seen {
		reserved = IsReserved(t.Text)
		p.names[t.Text] = reserved
	}
	if reserved {
		panic(bailout{p.errAt("E_RESERVED_NAME", t.Span.Start,
			"%q is reserved (a keyword, constant or function name) and cannot be used as %s; choose another name", expr.Clip(t.Text), what)})
	}
	p.next()
	return ast.Ident{Name: t.Text, Pos: t.Span.Start}
}

// doc reads an optional documentation block and returns its text without
// the /* */ delimiters.
func (p *parser) doc() (string, bool) {
	if !p.is(expr.DOC) {
		return "", false
	}
	t := p.next()
	return docText(t.Text), true
}

func docText(s string) string {
	if len(s) >= 4 {
		s = s[2 : len(s)-2]
	}
	return s
}

// expression parses one expression at the lookahead.
func (p *parser) expression() expr.Expr {
	e, err := p.p.ParseExpr()
	if err != nil {
		var se *expr.SyntaxError
		if errors.As(err, &se) {
			p.failAt(se.Span.Start, "%s", se.Msg)
		}
		p.failAt(p.peek().Span.Start, "%v", err)
	}
	return e
}

// guard parses "[ cond ]".
func (p *parser) guard() expr.Expr {
	p.expect(expr.LBRACK, `"["`)
	if p.is(expr.RBRACK) {
		p.failAt(p.peek().Span.Start, "empty guard: write a condition between [ and ]")
	}
	e := p.expression()
	p.expect(expr.RBRACK, `"]" closing the guard`)
	return e
}

func (p *parser) parseFile() *ast.File {
	f := &ast.File{Path: p.file, Src: p.src}
	for {
		start := p.peek()
		doc, hasDoc := p.doc()
		if p.isWord("def") {
			f.Vars = append(f.Vars, p.varDef(doc))
			continue
		}
		if !p.isWord("state") && !p.isWord("pseudo") {
			if hasDoc && p.is(expr.EOF) {
				p.failAt(start.Span.Start, "documentation block at end of file: it must precede a definition or the root state")
			}
			p.unexpected(`"def" or the root "state"`)
		}
		f.Root = p.stateDecl(doc)
		break
	}
	if !p.is(expr.EOF) {
		t := p.peek()
		if t.Kind == expr.IDENT && (t.Text == "state" || t.Text == "pseudo") {
			p.failAt(t.Span.Start, "a model has exactly one root state; put this state inside the root")
		}
		if t.Kind == expr.IDENT && t.Text == "def" {
			p.failAt(t.Span.Start, "variable definitions come before the root state")
		}
		p.unexpected("end of file after the root state")
	}
	return f
}

func (p *parser) varDef(doc string) *ast.VarDef {
	kw := p.next() // def
	v := &ast.VarDef{Doc: doc, Pos: kw.Span.Start}
	switch {
	case p.isWord("int"):
		p.next()
	case p.isWord("float"):
		p.next()
		v.Float = true
	default:
		p.unexpected(`"int" or "float" after "def"`)
	}
	v.Name = p.name("a variable name")
	p.expect(expr.ASSIGN, `"=" and an initial value`)
	v.Init = p.expression()
	p.checkInit(v.Init)
	p.expect(expr.SEMI, `";" after the initial value`)
	return v
}

// checkInit enforces the initialiser grammar: numeric, no names, no
// conditional, no atoms.
func (p *parser) checkInit(e expr.Expr) {
	expr.Inspect(e, func(n expr.Expr) bool {
		switch n := n.(type) {
		case *expr.Ident:
			panic(bailout{p.errAt("E_INIT_NOT_CONSTANT", n.Loc.Start,
				"an initial value cannot read %q: initialisers are constant expressions (numbers, pi, E, tau, math functions)", expr.Clip(n.Name))})
		case *expr.Conditional:
			panic(bailout{p.errAt("E_INIT_NOT_CONSTANT", n.Loc.Start,
				"an initial value cannot be a conditional expression; write the constant")})
		case *expr.AtomCall:
			panic(bailout{p.errAt("E_SYNTAX", n.Loc.Start, "unknown function %q", expr.Clip(n.Name))})
		}
		return true
	})
}
