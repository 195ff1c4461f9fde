package format

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/lineend"
)

// An RSC file (docs/rsc.md) has a grammar of its own around the
// expressions, read by prove.ParseRSC, which needs the model's graph to
// read it at all. lexRSC reads the same grammar without the graph:
// between statements only "//" comments and white space; `rsc`, the state
// name taken as written between double quotes (no escapes), ":", an
// expression read by the expression parser (which skips "//", "#" and
// "/* */" comments inside it), white space and "//" comments, ";".

// lexRSC returns the elements of an RSC file, or its first syntax error
// located line:col.
func lexRSC(lang *language, src string) ([]elem, error) {
	lx := &lexer{lang: lang, src: src, stmtFirst: -1, prevTok: -1}
	r := &rscLexer{lx: lx, src: src, line: 1}
	off := 0
	for {
		off = r.space(off)
		if off >= len(src) {
			return lx.els, nil
		}
		next, err := r.statement(off)
		if err != nil {
			return nil, err
		}
		off = next
	}
}

// rscLexer appends the elements of an RSC file to lx.
type rscLexer struct {
	lx      *lexer
	src     string
	prevEnd int // end of the last element
	line    int // line of prevEnd
}

// add appends the element src[start:end].
func (r *rscLexer) add(kind expr.Kind, start, end int, raw bool) {
	nl := lineend.Count(r.src[r.prevEnd:start])
	r.line += nl
	e := elem{kind: kind, text: r.src[start:end], line: int32(r.line), nl: int32(nl), raw: raw}
	if kind == expr.COMMENT {
		e.comment = true
		if !strings.HasPrefix(e.text, "/*") {
			e.text = strings.TrimRight(e.text, " \t\r")
		}
	}
	r.line += lineend.Count(r.src[start:end])
	r.prevEnd = end
	r.lx.els = append(r.lx.els, e)
	if !e.comment {
		r.lx.token(len(r.lx.els) - 1)
	}
}

// space skips white space and "//" comments from off, adding the comments.
func (r *rscLexer) space(off int) int {
	for off < len(r.src) {
		switch c := r.src[off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			off++
		case strings.HasPrefix(r.src[off:], "//"):
			end := lineend.LineEnd(r.src, off) // a lone "\r" ends it too
			r.add(expr.COMMENT, off, end, false)
			off = end
		default:
			return off
		}
	}
	return off
}

// statement reads `rsc "NAME": EXPR;` at off and returns the offset after it.
func (r *rscLexer) statement(off int) (int, error) {
	src := r.src
	if !strings.HasPrefix(src[off:], "rsc") || off+3 < len(src) && isWordByte(src[off+3]) {
		return 0, r.fail(off, `expected "rsc"`)
	}
	r.add(expr.IDENT, off, off+3, false)
	off = r.space(off + 3)
	if off >= len(src) || src[off] != '"' {
		return 0, r.fail(off, "expected a quoted state name after rsc")
	}
	end := strings.IndexByte(src[off+1:], '"')
	if end < 0 {
		return 0, r.fail(off, "unterminated state name")
	}
	r.add(expr.STRING, off, off+end+2, true)
	off = r.space(off + end + 2)
	if off >= len(src) || src[off] != ':' {
		return 0, r.fail(off, `expected ":" after the state name`)
	}
	r.add(expr.COLON, off, off+1, false)
	_, next, err := expr.ParseExprAt(src, off+1)
	if err != nil {
		var se *expr.SyntaxError
		if errors.As(err, &se) {
			return 0, err // located line:col already
		}
		return 0, r.fail(off+1, "%v", err)
	}
	if err := r.expression(off+1, next); err != nil {
		return 0, err
	}
	next = r.space(next)
	if next >= len(src) || src[next] != ';' {
		return 0, r.fail(next, `expected ";" after the constraint`)
	}
	r.add(expr.SEMI, next, next+1, false)
	return next + 1, nil
}

// expression adds the tokens and comments of src[start:end], which the
// expression parser has read.
func (r *rscLexer) expression(start, end int) error {
	sc := expr.NewScanner(r.src[start:end], expr.ScanComments)
	for t := sc.Scan(); t.Kind != expr.EOF; t = sc.Scan() {
		if t.Kind == expr.ILLEGAL {
			return r.fail(start+t.Span.Start.Offset, "%s", t.Err)
		}
		r.add(t.Kind, start+t.Span.Start.Offset, start+t.Span.End.Offset, false)
	}
	return nil
}

// fail returns a syntax error at byte offset off, "line:col: msg".
func (r *rscLexer) fail(off int, format string, args ...any) error {
	off = min(off, len(r.src))
	line := 1 + lineend.Count(r.src[:off])
	col := 1 + len([]rune(r.src[lineend.LineStart(r.src, off):off]))
	return fmt.Errorf("%d:%d: %s", line, col, fmt.Sprintf(format, args...))
}
