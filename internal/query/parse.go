package query

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
)

// keywords are the FBMCQ query keywords (docs/queries.md). None of them can be a
// bare variable name in an expression, except "cycle", which is the frame
// index there; var("name") reaches a variable named like a keyword.
var keywords = map[string]bool{
	"init": true, "cold": true, "terminated": true, "state": true, "where": true,
	"havoc": true, "assume": true, "always": true, "at": true, "event": true,
	"events": true, "cardinality": true, "any": true, "at_most_one": true,
	"check": true, "reach": true, "forbid": true, "invariant": true,
	"must_reach": true, "exists_always": true, "response": true, "cover": true,
	"trigger": true, "within": true, "var": true, "cycle": true, "active": true,
	"case": true, "call_count": true, "called": true, "current": true,
}

// IsKeyword reports whether name is an FBMCQ query keyword.
func IsKeyword(name string) bool { return keywords[name] }

var boolWords = map[string]bool{
	"true": true, "True": true, "TRUE": true,
	"false": false, "False": false, "FALSE": false,
}

// bailout carries an *Error up to Parse or Bind.
type bailout struct{ err *Error }

// parser is the clause-level parser. The expression package's Parser is
// its token cursor; expressions are parsed by expr and then checked
// against the FBMCQ atom grammar (atoms.go).
type parser struct {
	file string
	src  string
	p    *expr.Parser
}

// Parse parses one FBMCQ query (docs/queries.md). file is used in messages
// only. The error, if any, is an *Error of class ClassParse with code
// CodeSyntax.
func Parse(file, text string) (q *Query, err error) {
	ps := &parser{file: file, src: text, p: expr.NewParser(expr.NewScanner(text, 0))}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			q, err = nil, b.err
		}
	}()
	return ps.query(), nil
}

func (ps *parser) failAt(sp expr.Span, format string, args ...any) {
	panic(bailout{newError(ClassParse, CodeSyntax, ps.file, sp, format, args...)})
}

// unexpected fails with "expected what, found <lookahead>".
func (ps *parser) unexpected(what string) {
	t := ps.p.Peek()
	if t.Kind == expr.ILLEGAL {
		ps.failAt(t.Span, "%s", t.Err)
	}
	ps.failAt(t.Span, "expected %s, found %s", what, describe(t))
}

// describe renders a token for "found ..." in messages.
func describe(t expr.Token) string {
	switch t.Kind {
	case expr.EOF:
		return "end of input"
	case expr.IDENT:
		if keywords[t.Text] || expr.IsReserved(t.Text) {
			return fmt.Sprintf("keyword %q", t.Text)
		}
		return fmt.Sprintf("identifier %q", t.Text)
	case expr.INT, expr.FLOAT:
		return "number " + t.Text
	case expr.STRING:
		return "string " + t.Text
	}
	return fmt.Sprintf("%q", t.Text)
}

func (ps *parser) isWord(w string) bool {
	t := ps.p.Peek()
	return t.Kind == expr.IDENT && t.Text == w
}

func (ps *parser) expect(k expr.Kind, what string) expr.Token {
	if ps.p.Peek().Kind != k {
		ps.unexpected(what)
	}
	return ps.p.Next()
}

func (ps *parser) expectWord(w, what string) expr.Token {
	if !ps.isWord(w) {
		ps.unexpected(what)
	}
	return ps.p.Next()
}

// integer reads a non-negative integer literal (decimal or 0x hex).
func (ps *parser) integer(what string) (int, expr.Span) {
	t := ps.p.Peek()
	if t.Kind != expr.INT {
		ps.unexpected(what)
	}
	text, base := t.Text, 10
	if len(text) > 1 && (text[1] == 'x' || text[1] == 'X') {
		text, base = text[2:], 16
	}
	v, err := strconv.ParseUint(text, base, 64)
	if err != nil || v > maxClauseInt {
		ps.failAt(t.Span, "integer %s is too large (at most %d)", t.Text, maxClauseInt)
	}
	ps.p.Next()
	return int(v), t.Span
}

// str reads a string literal.
func (ps *parser) str(what string) Name {
	t := ps.expect(expr.STRING, what)
	return Name{Name: t.Value, Span: t.Span}
}

// expression parses one expression and checks it against the atom grammar.
func (ps *parser) expression() expr.Expr {
	e, err := ps.p.ParseExpr()
	if err != nil {
		var se *expr.SyntaxError
		if errors.As(err, &se) {
			ps.failAt(se.Span, "%s", se.Msg)
		}
		ps.failAt(ps.p.Peek().Span, "%v", err)
	}
	ps.validate(e)
	return e
}

func (ps *parser) query() *Query {
	q := &Query{File: ps.file, Text: ps.src}
	if ps.isWord("init") {
		q.Init = ps.init()
	}
	for ps.isWord("assume") {
		a := ps.assume()
		a.Index = len(q.Assumes)
		q.Assumes = append(q.Assumes, a)
	}
	if !ps.isWord("check") {
		switch {
		case q.Init == nil && len(q.Assumes) == 0:
			ps.unexpected(`"init", "assume" or "check"`)
		case ps.isWord("init"):
			ps.unexpected(`"assume" or "check" (the init clause comes first)`)
		default:
			ps.unexpected(`"assume" or "check"`)
		}
	}
	q.Check = ps.check()
	if ps.p.Peek().Kind != expr.EOF {
		ps.unexpected("end of input after the check clause (a query has exactly one check clause)")
	}
	return q
}

func (ps *parser) init() *Init {
	start := ps.p.Next() // init
	in := &Init{}
	switch {
	case ps.isWord("cold"):
		ps.p.Next()
	case ps.isWord("terminated"):
		ps.p.Next()
		in.Mode = Terminated
	case ps.isWord("state"):
		ps.p.Next()
		in.Mode = State
		ps.expect(expr.LPAREN, `"(" after state`)
		in.State = ps.str("a state path string")
		ps.expect(expr.RPAREN, `")"`)
	default:
		ps.unexpected(`"cold", "terminated" or "state" after init`)
	}
	if ps.isWord("havoc") {
		ps.p.Next()
		ps.havoc(in)
	}
	what := `"havoc", "where" or ";"`
	if in.HavocAll || len(in.Havoc) > 0 {
		what = `"where" or ";"`
	}
	if ps.isWord("where") {
		ps.p.Next()
		in.Where = ps.expression()
		what = `";" at the end of the init clause`
	}
	end := ps.expect(expr.SEMI, what)
	in.Span = expr.Span{Start: start.Span.Start, End: end.Span.End}
	return in
}

// havoc parses "*" or "{ name, ... }" after the havoc keyword.
func (ps *parser) havoc(in *Init) {
	if ps.p.Peek().Kind == expr.MUL {
		ps.p.Next()
		in.HavocAll = true
		return
	}
	ps.expect(expr.LBRACE, `"*" or "{" after havoc`)
	for {
		t := ps.p.Peek()
		switch {
		case t.Kind == expr.STRING:
			in.Havoc = append(in.Havoc, Name{Name: t.Value, Span: t.Span})
		case t.Kind == expr.IDENT && keywords[t.Text]:
			ps.failAt(t.Span, "%q is a query keyword; write the variable name as a string: %q", t.Text, t.Text)
		case t.Kind == expr.IDENT:
			in.Havoc = append(in.Havoc, Name{Name: t.Text, Span: t.Span})
		default:
			ps.unexpected("a variable name (identifier or string)")
		}
		ps.p.Next()
		if ps.p.Peek().Kind != expr.COMMA {
			break
		}
		ps.p.Next()
	}
	ps.expect(expr.RBRACE, `"," or "}" in the havoc list`)
}

func (ps *parser) assume() Assume {
	start := ps.p.Next() // assume
	var a Assume
	switch {
	case ps.isWord("always"):
		ps.p.Next()
		ps.expect(expr.COLON, `":" after "assume always"`)
		a.Kind, a.Cond = AssumeAlways, ps.expression()
	case ps.isWord("at"):
		ps.p.Next()
		a.Kind = AssumeAt
		a.Frame, a.FrameSpan = ps.integer("a frame index after \"assume at\"")
		ps.expect(expr.COLON, `":" after the frame index`)
		a.Cond = ps.expression()
	case ps.isWord("event"):
		ps.p.Next()
		ps.eventAssume(&a)
	case ps.isWord("events"):
		ps.p.Next()
		ps.cardinality(&a)
	default:
		ps.unexpected(`"always", "at", "event" or "events" after assume`)
	}
	end := ps.expect(expr.SEMI, `";" at the end of the assume clause`)
	a.Span = expr.Span{Start: start.Span.Start, End: end.Span.End}
	return a
}

// eventAssume parses `("P", sel) (==|!=) BOOL` after "assume event".
func (ps *parser) eventAssume(a *Assume) {
	a.Kind = AssumeEvent
	ps.expect(expr.LPAREN, `"(" after "assume event"`)
	a.Event = ps.str("an event name string")
	ps.expect(expr.COMMA, `"," after the event name`)
	a.Steps, a.StepsSpan = ps.eventSel()
	ps.expect(expr.RPAREN, `")" after the event selector`)
	op := ps.p.Peek()
	if op.Kind != expr.EQL && op.Kind != expr.NEQ {
		ps.unexpected(`"==" or "!="`)
	}
	ps.p.Next()
	t := ps.p.Peek()
	v, ok := boolWords[t.Text]
	if t.Kind != expr.IDENT || !ok {
		ps.unexpected("true or false")
	}
	ps.p.Next()
	a.Value = v == (op.Kind == expr.EQL) // != b is == !b
}

// eventSel parses "*", "k" or "a..b".
func (ps *parser) eventSel() (StepRange, expr.Span) {
	t := ps.p.Peek()
	if t.Kind == expr.MUL {
		ps.p.Next()
		return StepRange{All: true}, t.Span
	}
	if t.Kind != expr.INT {
		ps.unexpected(`an event selector ("*", k or a..b)`)
	}
	lo, sp := ps.integer("")
	if ps.p.Peek().Kind != expr.DOTDOT {
		return StepRange{Lo: lo, Hi: lo}, sp
	}
	ps.p.Next()
	hi, hsp := ps.integer("the end of the step range")
	return StepRange{Lo: lo, Hi: hi, Range: true}, expr.Span{Start: sp.Start, End: hsp.End}
}

// cardinality parses `cardinality (any | at_most_one { "P", ... })`.
func (ps *parser) cardinality(a *Assume) {
	a.Kind = AssumeCardinality
	ps.expectWord("cardinality", `"cardinality" after "assume events"`)
	switch {
	case ps.isWord("any"):
		ps.p.Next()
		a.Any = true
		return
	case ps.isWord("at_most_one"):
		ps.p.Next()
	default:
		ps.unexpected(`"any" or "at_most_one"`)
	}
	ps.expect(expr.LBRACE, `"{" after at_most_one`)
	for {
		a.Pool = append(a.Pool, ps.str("an event name string"))
		if ps.p.Peek().Kind != expr.COMMA {
			break
		}
		ps.p.Next()
	}
	ps.expect(expr.RBRACE, `"," or "}" in the event list`)
}

// kindByName maps a property kind keyword to its Kind.
func kindByName(name string) (Kind, bool) {
	for k, n := range kindNames {
		if n == name {
			return Kind(k), true
		}
	}
	return 0, false
}

func (ps *parser) check() Check {
	start := ps.p.Next() // check
	var c Check
	t := ps.p.Peek()
	k, ok := kindByName(t.Text)
	if t.Kind != expr.IDENT || !ok {
		ps.unexpected("a property kind (" + strings.Join(kindNames[:], ", ") + ")")
	}
	ps.p.Next()
	c.Kind = k
	if k == LTL {
		ps.ltl(&c)
		c.Span = expr.Span{Start: start.Span.Start, End: ps.p.End()}
		return c
	}
	ps.expect(expr.LEQ, `"<=" after the property kind`)
	c.Bound, c.BoundSpan = ps.integer("an integer bound after \"<=\"")
	if ps.isWord("fair") {
		ps.fair(&c)
	}
	ps.expect(expr.COLON, `":" or "fair" after the bound`)
	if ps.isWord("trigger") {
		ps.p.Next()
		c.Trigger = ps.expression()
		ps.expect(expr.ARROW, `"->" after the trigger`)
		ps.expectWord("within", `"within" after "->"`)
		c.Window, c.WindowSpan = ps.integer("an integer window after \"within\"")
		c.Target = ps.expression()
	} else {
		c.Body = ps.expression()
	}
	end := ps.expect(expr.SEMI, `";" at the end of the check clause`)
	c.Span = expr.Span{Start: start.Span.Start, End: end.Span.End}
	return c
}

// ltl parses the rest of `check ltl [fair ...] [strong ...]: FORMULA;`
// (docs/queries.md#ltl). The formula is LTL, not an FBMCQ expression
// (U, R, W, X, G, F, <->), so it is kept as text up to the ";" outside a
// quoted name, and the token cursor restarts after it.
func (ps *parser) ltl(c *Check) {
	for {
		switch {
		case ps.isWord("fair") && c.Fair == nil && !c.FairAll:
			ps.fair(c)
			continue
		case ps.isWord("strong") && c.Strong == nil && !c.StrongAll:
			var s Check
			ps.fair(&s)
			c.Strong, c.StrongAll, c.StrongSpan = s.Fair, s.FairAll, s.FairSpan
			continue
		}
		break
	}
	colon := ps.expect(expr.COLON, `":", "fair" or "strong" after ltl`)
	from := colon.Span.End.Offset
	end := formulaEnd(ps.src, from)
	if end >= len(ps.src) {
		ps.failAt(expr.Span{Start: colon.Span.End, End: colon.Span.End}, `expected ";" at the end of the ltl formula`)
	}
	text := ps.src[from:end]
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	ps.p = expr.NewParser(expr.NewScannerAt(ps.src, from+lead, 0))
	c.FormulaSpan.Start = ps.p.Peek().Span.Start
	c.Formula = strings.TrimSpace(text)
	if c.Formula == "" {
		ps.failAt(colon.Span, "expected an LTL formula after the colon")
	}
	ps.p = expr.NewParser(expr.NewScannerAt(ps.src, end, 0))
	semi := ps.expect(expr.SEMI, `";" at the end of the ltl formula`)
	c.FormulaSpan.End = semi.Span.Start
}

// formulaEnd is the offset of the first ";" at or after from that is not
// inside a double-quoted name; len(src) when there is none.
func formulaEnd(src string, from int) int {
	for i := from; i < len(src); i++ {
		switch src[i] {
		case ';':
			return i
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		}
	}
	return len(src)
}

// fair parses the fairness clause `fair { "e", ... }` or `fair *` between the bound and
// the colon (docs/queries.md#fairness). "fair" is not a keyword: before
// this extension only ":" could follow the bound, so the word cannot clash
// with a query that parsed before, nor with a variable named fair.
func (ps *parser) fair(c *Check) {
	start := ps.p.Next() // fair
	if t := ps.p.Peek(); t.Kind == expr.MUL {
		ps.p.Next()
		c.FairAll, c.FairSpan = true, expr.Span{Start: start.Span.Start, End: t.Span.End}
		return
	}
	ps.expect(expr.LBRACE, `"{" or "*" after fair`)
	for {
		c.Fair = append(c.Fair, ps.str("an event name string"))
		if ps.p.Peek().Kind != expr.COMMA {
			break
		}
		ps.p.Next()
	}
	end := ps.expect(expr.RBRACE, `"," or "}" in the fair event list`)
	c.FairSpan = expr.Span{Start: start.Span.Start, End: end.Span.End}
}
