package parser

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// importStmt parses `import "file" as Alias [named "…"] ( ; | { maps } )`.
func (p *parser) importStmt() *ast.Import {
	kw := p.next()
	im := &ast.Import{Pos: kw.Span.Start}
	file := p.expect(expr.STRING, "the imported file name as a string")
	im.File, im.FilePos = file.Value, file.Span.Start
	if strings.TrimSpace(im.File) == "" {
		p.failAt(file.Span.Start, "the imported file name is empty")
	}
	p.expectWord("as")
	im.Alias = p.name("an import alias (the state the imported machine is mounted as)")
	if p.isWord("named") {
		p.next()
		im.Display = p.expect(expr.STRING, "a string after \"named\"").Value
	}
	if p.is(expr.SEMI) {
		p.next()
		return im
	}
	p.expect(expr.LBRACE, `";" or "{" after the import alias`)
	for !p.is(expr.RBRACE) {
		switch {
		case p.is(expr.SEMI):
			p.next()
		case p.isWord("def"):
			im.Defs = append(im.Defs, p.defMap())
		case p.isWord("event"):
			im.Events = append(im.Events, p.eventMap())
		case p.is(expr.DOC):
			p.failAt(p.peek().Span.Start, "a documentation block cannot precede an import mapping")
		default:
			p.unexpected(`"def", "event" or "}" in the import block`)
		}
	}
	p.next()
	return im
}

func (p *parser) eventMap() ast.EventMap {
	kw := p.next()
	m := ast.EventMap{Pos: kw.Span.Start}
	m.From = p.path("an imported event")
	p.expect(expr.ARROW, `"->" in the event mapping`)
	m.To = p.path("a host event")
	if p.isWord("named") {
		p.next()
		m.Display = p.expect(expr.STRING, "a string after \"named\"").Value
	}
	p.expect(expr.SEMI, `";" after the event mapping`)
	return m
}

// defMap parses `def selector -> target;`. Patterns and templates are
// lexed from the source directly (they are not expression tokens).
func (p *parser) defMap() ast.DefMap {
	kw := p.next()
	m := ast.DefMap{Pos: kw.Span.Start}
	t := p.peek()
	switch {
	case t.Kind == expr.LBRACE:
		p.next()
		m.Kind = ast.SelectSet
		for {
			m.Names = append(m.Names, p.name("a variable name").Name)
			if !p.is(expr.COMMA) {
				break
			}
			p.next()
		}
		p.expect(expr.RBRACE, `"," or "}" in the variable set`)
	default:
		off := t.Span.Start.Offset
		word := p.rawWord(off, isSelectorByte)
		switch {
		case word == "":
			p.unexpected(`a variable selector (*, {a, b}, a pattern like sensor_* or a name)`)
		case word == "*":
			m.Kind = ast.SelectAll
		case strings.Contains(word, "*"):
			if msg := patternProblem(word); msg != "" {
				p.failAt(t.Span.Start, "invalid selector pattern %q: %s", expr.Clip(word), msg)
			}
			m.Kind, m.Names = ast.SelectPattern, []string{word}
		default:
			if !isIdent(word) {
				p.failAt(t.Span.Start, "invalid variable name %q in the selector", expr.Clip(word))
			}
			m.Kind, m.Names = ast.SelectExact, []string{word}
		}
		p.reset(off+len(word), t.Span.Start.Line) // a word holds no newline
	}
	p.expect(expr.ARROW, `"->" in the def mapping`)
	t = p.peek()
	off := t.Span.Start.Offset
	m.Target, m.TargPos = p.rawWord(off, isTemplateByte), t.Span.Start
	if m.Target == "" {
		p.unexpected("a target name, template (left_$1, x_${1}) or *")
	}
	if msg := checkTemplate(m.Target); msg != "" {
		p.failAt(t.Span.Start, "invalid target %q: %s", expr.Clip(m.Target), msg)
	}
	p.reset(off+len(m.Target), t.Span.Start.Line)
	p.expect(expr.SEMI, `";" after the def mapping`)
	return m
}

// rawWord returns the run of bytes at off accepted by ok.
func (p *parser) rawWord(off int, ok func(byte) bool) string {
	end := off
	for end < len(p.src) && ok(p.src[end]) {
		end++
	}
	return p.src[off:end]
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || (c|0x20) >= 'a' && (c|0x20) <= 'z'
}
func isSelectorByte(c byte) bool { return isWordByte(c) || c == '*' }
func isTemplateByte(c byte) bool {
	return isWordByte(c) || c == '*' || c == '$' || c == '{' || c == '}'
}

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}

// patternProblem says what is wrong with a selector pattern (letters,
// digits, _ and *), or "" when nothing is: each * is a capture $1-$9, so
// there are at most nine, and two in a row would split one text between
// two captures in no particular way.
func patternProblem(s string) string {
	switch n := strings.Count(s, "*"); {
	case s[0] >= '0' && s[0] <= '9':
		return "a variable name cannot start with a digit"
	case strings.Contains(s, "**"):
		return `two "*" in a row; write one`
	case n > 9:
		return fmt.Sprintf(`%d "*", at most 9 (one per placeholder $1-$9)`, n)
	}
	return ""
}

// checkTemplate validates a def target: "*", or letters, digits, _ and
// placeholders $N / ${N} (N a single digit: $0 is the whole name, $1-$9
// the selector's captures), not starting with a digit. Whether the
// selector has capture N is checked when the model is built.
func checkTemplate(s string) string {
	if s == "*" {
		return ""
	}
	if strings.Contains(s, "*") {
		return `"*" keeps the name and stands alone`
	}
	if s[0] >= '0' && s[0] <= '9' {
		return "a variable name cannot start with a digit"
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '$':
			switch {
			case i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
				i++
			case i+3 < len(s) && s[i+1] == '{' && s[i+2] >= '0' && s[i+2] <= '9' && s[i+3] == '}':
				i += 3
			default:
				return "a placeholder is $0 (the whole name), $1 … $9 (the captures) or ${0} … ${9}"
			}
		case c == '{' || c == '}':
			return "braces only appear in ${N}"
		}
	}
	return ""
}
