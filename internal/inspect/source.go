package inspect

import (
	"sort"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/lineend"
)

// source is the root file's text with its line starts, so that the
// model's line:column positions (which carry no end) can be widened to
// the span of the object they start.
type source struct {
	text  string
	lines []int // byte offset of each line's first byte
}

func newSource(text string) *source {
	// Lines end as the parser reads them: "\n", "\r\n" or a lone "\r".
	return &source{text: text, lines: lineend.Starts(text)}
}

// offset converts a 1-based line and rune column to a byte offset, or -1.
func (s *source) offset(line, col int) int {
	if line < 1 || line > len(s.lines) || col < 1 {
		return -1
	}
	off := s.lines[line-1]
	for c := 1; c < col; c++ {
		if off >= len(s.text) || lineend.Is(s.text[off]) {
			return -1
		}
		_, n := utf8.DecodeRuneInString(s.text[off:])
		off += n
	}
	return off
}

// at converts a byte offset to a 1-based line and rune column.
func (s *source) at(off int) (line, col int) {
	i := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, utf8.RuneCountInString(s.text[s.lines[i]:off]) + 1
}

// span makes the span of the bytes [from, to).
func (s *source) span(from, to int) Span {
	l, c := s.at(from)
	el, ec := s.at(to)
	return Span{Line: l, Column: c, EndLine: el, EndColumn: ec}
}

// point is the one-character span at p, for positions that cannot be
// widened (another file, or a position the source does not hold).
func point(line, col int) Span {
	return Span{Line: line, Column: col, EndLine: line, EndColumn: col + 1}
}

// ident returns the span of the first whole-word occurrence of name at
// or after p on p's line (the name of a declaration that starts with a
// keyword), or the point at p.
func (s *source) ident(p model.Pos, name string) Span {
	off := s.offset(p.Line, p.Col)
	if off < 0 || name == "" {
		return point(p.Line, p.Col)
	}
	end := len(s.text)
	if i := lineend.Index(s.text[off:]); i >= 0 {
		end = off + i
	}
	for i := off; i+len(name) <= end; i++ {
		if s.text[i:i+len(name)] == name && !isWord(s.text, i-1) && !isWord(s.text, i+len(name)) {
			return s.span(i, i+len(name))
		}
	}
	return point(p.Line, p.Col)
}

// word returns the span of the identifier-like token at p, or the point.
func (s *source) word(line, col int) Span {
	off := s.offset(line, col)
	if off < 0 {
		return point(line, col)
	}
	end := off
	for end < len(s.text) && isWord(s.text, end) {
		end++
	}
	if end == off {
		return point(line, col)
	}
	return s.span(off, end)
}

func isWord(text string, i int) bool {
	if i < 0 || i >= len(text) {
		return false
	}
	c := text[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// statement returns the span of the declaration or statement starting at
// p: up to and including the first ";" outside brackets, or the "}" that
// closes a block opened outside brackets (a state body, an effect, an
// action body) together with a ";" right after it. Comments and strings
// are skipped.
func (s *source) statement(p model.Pos) Span {
	start := s.offset(p.Line, p.Col)
	if start < 0 {
		return point(p.Line, p.Col)
	}
	end := s.statementEnd(start)
	return s.span(start, end)
}

func (s *source) statementEnd(i int) int {
	sc := expr.NewScannerAt(s.text, i, 0) // the parser's own tokens: strings and comments as it reads them
	depth, braces := 0, 0
	for {
		tok := sc.Scan()
		switch tok.Kind {
		case expr.EOF:
			return len(s.text)
		case expr.LPAREN, expr.LBRACK:
			depth++
		case expr.RPAREN, expr.RBRACK:
			depth--
		case expr.LBRACE:
			braces++
		case expr.RBRACE:
			braces--
			if braces <= 0 && depth <= 0 {
				end := tok.Span.End.Offset
				if j := skipBlanks(s.text, end); j < len(s.text) && s.text[j] == ';' {
					return j + 1
				}
				return end
			}
		case expr.SEMI:
			if depth <= 0 && braces <= 0 {
				return tok.Span.End.Offset
			}
		}
	}
}

func skipBlanks(t string, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// exprSpan is the span of a parsed expression (its positions are exact).
func exprSpan(e expr.Expr) Span {
	sp := e.Span()
	return Span{Line: sp.Start.Line, Column: sp.Start.Col, EndLine: sp.End.Line, EndColumn: sp.End.Col}
}

// exprText is the source text of an expression of the root file, or its
// canonical rendering when the expression is from another file.
func (a *analysis) exprText(e expr.Expr, file string) string {
	sp := e.Span()
	if file == a.file && sp.Start.Offset >= 0 && sp.End.Offset <= len(a.src.text) && sp.Start.Offset < sp.End.Offset {
		return a.src.text[sp.Start.Offset:sp.End.Offset]
	}
	return expr.Format(e)
}

// wordText is the text of the identifier-like token at line:col.
func (s *source) wordText(line, col int) string {
	sp := s.word(line, col)
	from, to := s.offset(sp.Line, sp.Column), s.offset(sp.EndLine, sp.EndColumn)
	if from < 0 || to < from {
		return ""
	}
	return s.text[from:to]
}
