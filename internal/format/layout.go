package format

import (
	"strings"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/lineend"
)

// indentUnit is one level of indentation (docs/fmt.md).
const indentUnit = "    "

// printer lays out the elements; the output depends only on the tokens,
// the comments and, for comments and blank lines, where the source broke
// lines, which is what makes formatting idempotent.
type printer struct {
	lang    *language
	out     strings.Builder
	depth   int
	parens  int  // "(" open in the statement: "=" there is a named argument
	started bool // something has been written
	line    int  // lines written
	trails  []trail
}

// trail is a line comment that ends a line of code: consecutive ones are
// aligned (align).
type trail struct {
	line int // output line
	off  int // byte offset of the space before the comment
}

// layout returns the canonical text of els. It moves the line breaks
// before a lone ";" onto the element after it (els is used once).
func layout(l *language, els []elem) string {
	p := &printer{lang: l}
	p.out.Grow(len(els) * 6)
	var comments []*elem
	prev, carry := (*elem)(nil), int32(0)
	for i := range els {
		e := &els[i]
		e.nl += carry
		carry = 0
		switch {
		case e.drop:
			carry = e.nl // a blank line before a lone ";" still separates
		case e.comment:
			comments = append(comments, e)
		default:
			p.gap(prev, comments, e)
			p.token(e)
			prev, comments = e, comments[:0]
		}
	}
	p.gap(prev, comments, nil)
	if p.started {
		p.out.WriteByte('\n')
	}
	return align(p.out.String(), p.trails)
}

// align pads the code of consecutive statements of one indentation that
// end in a line comment so that their comments start in one column, one
// space after the longest code (as gofmt does).
func align(text string, trails []trail) string {
	if len(trails) < 2 {
		return text
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(trails); {
		j := i + 1
		for j < len(trails) && trails[j].line == trails[j-1].line+1 &&
			indentOf(text, trails[j].off) == indentOf(text, trails[j-1].off) {
			j++
		}
		width := 0
		for _, t := range trails[i:j] {
			width = max(width, codeWidth(text, t.off))
		}
		for _, t := range trails[i:j] {
			b.WriteString(text[last:t.off])
			b.WriteString(strings.Repeat(" ", width-codeWidth(text, t.off)))
			last = t.off
		}
		i = j
	}
	b.WriteString(text[last:])
	return b.String()
}

// indentOf returns the leading blanks of the line of text holding off.
func indentOf(text string, off int) string {
	line := text[lineend.LineStart(text, off):off]
	return line[:len(line)-len(strings.TrimLeft(line, " "))]
}

// codeWidth is the width in runes of the line of text up to off.
func codeWidth(text string, off int) int {
	start := lineend.LineStart(text, off)
	return utf8.RuneCountInString(text[start:off])
}

// opens reports whether e opens a block laid out over lines.
func opens(e *elem) bool {
	return e != nil && e.is(expr.LBRACE) && e.block != setBraces && !e.inline && !e.empty
}

// closes reports whether e closes a block laid out over lines.
func closes(e *elem) bool {
	return e != nil && e.is(expr.RBRACE) && e.block != setBraces && !e.inline && !e.empty
}

// hard reports whether b must start a new line after a: a statement ends
// or a block opens or closes between them.
func (p *printer) hard(a, b *elem) bool {
	switch {
	case a == nil || b == nil:
		return true
	case opens(a) || closes(b):
		return true
	case a.is(expr.SEMI):
		return !(b.is(expr.RBRACE) && b.inline)
	case a.is(expr.RBRACE) && a.block != setBraces:
		return !b.isWord("else")
	}
	return false
}

// gap writes what goes between the tokens a and b (nil at the start and the
// end of the file) and the comments between them.
func (p *printer) gap(a *elem, comments []*elem, b *elem) {
	hard := p.hard(a, b)
	inner := p.depth // comments before a closing brace are inside its block
	cont := p.depth + 1
	afterLine, leading := false, false
	for k, c := range comments {
		// In a hard gap a /* */ block with a token right after it on its
		// line belongs to what follows (a documentation block): it starts
		// a line, and the token follows it on that line.
		next := b
		if k+1 < len(comments) {
			next = comments[k+1]
		}
		block := strings.HasPrefix(c.text, "/*")
		leading = hard && block && next != nil && next.nl == 0 && !closes(next) && p.started
		switch {
		case !p.started:
		case c.nl == 0 && !leading:
			if !block && a != nil && a.is(expr.SEMI) {
				p.trails = append(p.trails, trail{p.line, p.out.Len()})
			}
			p.out.WriteByte(' ')
		case hard:
			p.newline(c.nl >= 2 && !(k == 0 && opens(a)), inner)
		default:
			p.newline(false, cont)
		}
		p.out.WriteString(c.text)
		p.line += lineend.Count(c.text)
		p.started = true
		afterLine = !block
	}
	if b == nil {
		return
	}
	depth := p.depth
	if closes(b) {
		depth--
	}
	switch {
	case !p.started:
	case hard && len(comments) > 0 && !afterLine && b.nl == 0 && !closes(b):
		p.out.WriteByte(' ') // after its documentation block
	case hard:
		p.newline(b.nl >= 2 && !closes(b) && !(len(comments) == 0 && opens(a)), depth)
	case afterLine || len(comments) > 0 && b.nl > 0:
		p.newline(false, cont)
	case len(comments) > 0:
		if !noSpaceBefore(b) {
			p.out.WriteByte(' ')
		}
	case p.spaced(a, b) || glued(p.lang, a, b):
		p.out.WriteByte(' ')
	}
	p.depth = depth
}

func (p *printer) newline(blank bool, depth int) {
	p.out.WriteByte('\n')
	p.line++
	if blank {
		p.out.WriteByte('\n')
		p.line++
	}
	for range max(depth, 0) {
		p.out.WriteString(indentUnit)
	}
}

// token writes e and updates the nesting it opens or closes.
func (p *printer) token(e *elem) {
	p.out.WriteString(e.text)
	p.started = true
	switch {
	case e.is(expr.LPAREN):
		p.parens++
	case e.is(expr.RPAREN):
		p.parens--
	case opens(e):
		p.depth++
	}
}

// noSpaceBefore: tokens that follow what precedes them directly.
func noSpaceBefore(b *elem) bool {
	if b.raw {
		return false
	}
	switch b.kind {
	case expr.SEMI, expr.COMMA, expr.RPAREN, expr.RBRACK, expr.DOT, expr.DOTDOT:
		return true
	}
	return false
}

// spaced reports whether one space separates the tokens a and b on a line.
func (p *printer) spaced(a, b *elem) bool {
	switch {
	case noSpaceBefore(b), b.clause:
		return false
	case a.raw:
		return true
	case a.prefix:
		return false // -x, /Root.E
	}
	switch a.kind {
	case expr.LPAREN, expr.LBRACK, expr.DOT, expr.NOT, expr.DOTDOT:
		return false
	}
	switch {
	case b.is(expr.LPAREN) && a.is(expr.IDENT) && p.lang.callee(a.text):
		return false // f(x)
	case p.parens > 0 && (a.is(expr.ASSIGN) || b.is(expr.ASSIGN)):
		return false // called(stage="enter")
	case a.is(expr.LBRACE) && (a.empty || a.block == setBraces && !p.lang.spacedSets):
		return false // {} and {a, b}
	case b.is(expr.RBRACE) && b.block == setBraces && !p.lang.spacedSets:
		return false
	}
	return true
}

// glued reports whether a and b written together would lex differently
// ("-" "-" stays apart from "--" in no token, but "/" "*" opens a comment):
// then a space separates them although the layout wants none.
func glued(l *language, a, b *elem) bool {
	if a.raw || b.raw {
		return false
	}
	sc := expr.NewScanner(a.text+b.text, l.mode|expr.ScanComments)
	t1, t2, t3 := sc.Scan(), sc.Scan(), sc.Scan()
	return t1.Text != a.text || t2.Text != b.text || t1.Kind != a.kind || t2.Kind != b.kind || t3.Kind != expr.EOF
}
