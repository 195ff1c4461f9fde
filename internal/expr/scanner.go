package expr

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/lineend"
)

// Pos is a position in source text. Line and Col are 1-based; Col counts
// Unicode code points (runes) from the start of the line, like package
// jsonvalue. Offset is the 0-based byte offset from the start of the text.
// The zero Pos is "no position" (for nodes built by code, not parsed).
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether p is a real source position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders p as "line:col", or "-" for the zero Pos.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Span is the source extent of a token or node: Start is its first byte,
// End the position just after its last byte.
type Span struct {
	Start, End Pos
}

// String renders the span by its start, "line:col".
func (s Span) String() string { return s.Start.String() }

// Kind is the lexical class of a token.
type Kind uint8

// Token kinds. Word operators (and, or, not, xor, implies, iff), boolean
// literals and the constants pi/E/tau are scanned as IDENT; the parser
// gives them their meaning, so an embedding parser sees every word the same
// way.
const (
	EOF     Kind = iota
	ILLEGAL      // a lexical error; Token.Err says which
	DOC          // a /* ... */ block, only with ScanDocs
	IDENT        // [A-Za-z_][A-Za-z0-9_]*
	INT          // 123, 0x1F
	FLOAT        // 1., 1.5, .5, 3e2, 1.5e-3
	STRING       // "..." or '...'; Token.Value holds the decoded text

	LPAREN   // (
	RPAREN   // )
	LBRACK   // [
	RBRACK   // ]
	LBRACE   // {
	RBRACE   // }
	COMMA    // ,
	SEMI     // ;
	DOT      // .
	DOTDOT   // ..
	QUESTION // ?
	COLON    // :
	DCOLON   // ::
	DEFINE   // :=
	ASSIGN   // =
	ARROW    // ->
	IMPLIES  // =>
	INITIAL  // [*]
	ADD      // +
	SUB      // -
	MUL      // *
	QUO      // /
	REM      // %
	POW      // **
	AND      // &
	OR       // |
	XOR      // ^
	SHL      // <<
	SHR      // >>
	LAND     // &&
	LOR      // ||
	NOT      // !
	EQL      // ==
	NEQ      // !=
	LSS      // <
	LEQ      // <=
	GTR      // >
	GEQ      // >=

	COMMENT // a comment, only with ScanComments: "// …" or "# …" (without the newline), or /* … */ without ScanDocs
)

var kindText = [...]string{
	EOF: "end of input", ILLEGAL: "illegal token", DOC: "documentation block",
	IDENT: "identifier", INT: "integer", FLOAT: "float", STRING: "string",
	LPAREN: "(", RPAREN: ")", LBRACK: "[", RBRACK: "]", LBRACE: "{", RBRACE: "}",
	COMMA: ",", SEMI: ";", DOT: ".", DOTDOT: "..", QUESTION: "?", COLON: ":",
	DCOLON: "::", DEFINE: ":=", ASSIGN: "=", ARROW: "->", IMPLIES: "=>",
	INITIAL: "[*]", ADD: "+", SUB: "-", MUL: "*", QUO: "/", REM: "%", POW: "**",
	AND: "&", OR: "|", XOR: "^", SHL: "<<", SHR: ">>", LAND: "&&", LOR: "||",
	NOT: "!", EQL: "==", NEQ: "!=", LSS: "<", LEQ: "<=", GTR: ">", GEQ: ">=",
	COMMENT: "comment",
}

// String returns the operator text of a punctuation kind, or a description
// of the other kinds.
func (k Kind) String() string {
	if int(k) < len(kindText) {
		return kindText[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// punct lists the punctuation tokens, longest first so that the scanner
// takes the longest match.
var punct = []struct {
	text string
	kind Kind
}{
	{"[*]", INITIAL},
	{"**", POW}, {">>", SHR}, {"<<", SHL}, {"<=", LEQ}, {">=", GEQ},
	{"==", EQL}, {"!=", NEQ}, {"&&", LAND}, {"||", LOR}, {"=>", IMPLIES},
	{":=", DEFINE}, {"::", DCOLON}, {"->", ARROW}, {"..", DOTDOT},
	{";", SEMI}, {",", COMMA}, {"{", LBRACE}, {"}", RBRACE}, {"[", LBRACK},
	{"]", RBRACK}, {"(", LPAREN}, {")", RPAREN}, {"?", QUESTION}, {":", COLON},
	{".", DOT}, {"/", QUO}, {"*", MUL}, {"!", NOT}, {"+", ADD}, {"-", SUB},
	{"%", REM}, {"&", AND}, {"^", XOR}, {"|", OR}, {"<", LSS}, {">", GTR},
	{"=", ASSIGN},
}

// Token is one lexical token.
type Token struct {
	Kind  Kind
	Text  string // the source text of the token
	Value string // STRING: the decoded text
	Err   string // ILLEGAL: what is wrong
	Span  Span
}

// MaxEchoed is how many characters of a token an error message quotes,
// so that an error never echoes more of a file than a short piece of the
// offending token (a file read by mistake must not be disclosed).
const MaxEchoed = 40

// Clip returns s cut to MaxEchoed characters, ending in "…" when cut.
func Clip(s string) string {
	n := 0
	for i := range s {
		if n == MaxEchoed {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// describe renders the token for "found ..." in error messages.
func (t Token) describe() string {
	text := Clip(t.Text)
	switch t.Kind {
	case EOF:
		return "end of input"
	case ILLEGAL:
		return fmt.Sprintf("%q", text)
	case DOC:
		return "documentation block"
	case COMMENT:
		return "comment"
	case IDENT:
		if isReservedWord(t.Text) {
			return fmt.Sprintf("keyword %q", text)
		}
		return fmt.Sprintf("identifier %q", text)
	case INT, FLOAT:
		return "number " + text
	case STRING:
		return "string " + text
	}
	return fmt.Sprintf("%q", text)
}

// Mode changes what the scanner does with comments.
type Mode uint

const (
	// ScanDocs makes the scanner return /* ... */ blocks as DOC tokens
	// (FCSTM, where they are documentation) instead of skipping them as
	// comments (FBMCQ, RSC files).
	ScanDocs Mode = 1 << iota
	// ScanComments makes the scanner return every comment as a COMMENT
	// token where it stands instead of skipping it (a /* ... */ block is
	// still DOC with ScanDocs): a formatter must keep them. Parsers do not
	// set it.
	ScanComments
)

// Scanner splits source text into tokens. Comments "// ..." and "# ..." run
// to the end of the line ("\n", "\r\n" or a lone "\r", package lineend)
// and are skipped; /* ... */ is skipped or returned as DOC; with
// ScanComments all of them are returned (see Mode). Lexical errors come
// back as ILLEGAL tokens, so a parser that never needs the bad token never
// reports it.
type Scanner struct {
	src       string
	mode      Mode
	off       int
	line      int
	lineStart int // offset of the first byte of the current line
	colOff    int // pos memo: column colCol is at offset colOff
	colCol    int
}

// NewScanner returns a scanner at the start of src.
func NewScanner(src string, mode Mode) *Scanner {
	return &Scanner{src: src, mode: mode, line: 1, colCol: 1}
}

// NewScannerAt returns a scanner that starts at byte offset off of src;
// positions stay relative to the whole of src. An offset outside src is
// clamped.
func NewScannerAt(src string, off int, mode Mode) *Scanner {
	off = max(0, min(off, len(src)))
	s := NewScanner(src, mode)
	s.line = 1 + lineend.Count(src[:off])
	s.lineStart = lineend.LineStart(src, off)
	s.colOff = s.lineStart
	s.off = off
	return s
}

// NewScannerAtLine is NewScannerAt for a caller that knows the 1-based
// line of byte offset off (a parser restarting after text it lexed by
// hand on one line): only the start of that line is looked for, not every
// line before it, so that restarting many times in a large text stays
// linear. The line is trusted.
func NewScannerAtLine(src string, off, line int, mode Mode) *Scanner {
	off = max(0, min(off, len(src)))
	s := NewScanner(src, mode)
	s.line = max(line, 1)
	s.lineStart = lineend.LineStart(src, off)
	s.colOff = s.lineStart
	s.off = off
	return s
}

// pos returns the current position. The column counts runes as
// utf8.RuneCountInString does (an invalid byte is one rune); token
// boundaries never split a valid UTF-8 sequence, so counting from a
// memoised earlier boundary of the same line is exact.
func (s *Scanner) pos() Pos {
	if s.colOff < s.lineStart || s.colOff > s.off {
		s.colOff, s.colCol = s.lineStart, 1
	}
	s.colCol += utf8.RuneCountInString(s.src[s.colOff:s.off])
	s.colOff = s.off
	return Pos{Offset: s.off, Line: s.line, Col: s.colCol}
}

// peek returns the byte i positions ahead, or 0 past the end.
func (s *Scanner) peek(i int) byte {
	if s.off+i < len(s.src) {
		return s.src[s.off+i]
	}
	return 0
}

// advance moves n bytes forward, keeping track of lines: "\n", "\r\n"
// and a lone "\r" each end one (package lineend), a "\r\n" at its "\n".
func (s *Scanner) advance(n int) {
	for ; n > 0 && s.off < len(s.src); n-- {
		if c := s.src[s.off]; c == '\n' || c == '\r' && s.peek(1) != '\n' {
			s.line++
			s.lineStart = s.off + 1
		}
		s.off++
	}
}

// Scan returns the next token; at the end it returns EOF forever.
func (s *Scanner) Scan() Token {
	if tok, ok := s.skipSpace(); !ok {
		return tok
	}
	start := s.pos()
	c := s.peek(0)
	var tok Token
	switch {
	case s.off >= len(s.src):
		return Token{Kind: EOF, Span: Span{start, start}}
	case isLetter(c):
		for isLetter(s.peek(0)) || isDigit(s.peek(0)) {
			s.advance(1)
		}
		tok.Kind = IDENT
	case isDigit(c) || (c == '.' && isDigit(s.peek(1))):
		tok.Kind, tok.Err = s.number()
		if tok.Err != "" {
			tok.Err += fmt.Sprintf(" %q", Clip(s.src[start.Offset:s.off]))
		}
	case c == '"' || c == '\'':
		tok.Kind, tok.Value, tok.Err = s.stringLit(c)
	default:
		tok.Kind = ILLEGAL
		for _, p := range punct {
			if p.text[0] == c && strings.HasPrefix(s.src[s.off:], p.text) { // first byte first: most entries differ there
				tok.Kind = p.kind
				s.advance(len(p.text))
				break
			}
		}
		if tok.Kind == ILLEGAL {
			r, size := utf8.DecodeRuneInString(s.src[s.off:])
			s.advance(size)
			tok.Err = fmt.Sprintf("unexpected character %q", r)
		}
	}
	if tok.Err != "" {
		tok.Kind = ILLEGAL
	}
	tok.Text = s.src[start.Offset:s.off]
	tok.Span = Span{start, s.pos()}
	return tok
}

// skipSpace skips white space and comments. With ScanDocs a /* block is
// returned as a DOC token (ok false), with ScanComments every comment is
// returned (ok false); an unterminated block is ILLEGAL.
func (s *Scanner) skipSpace() (Token, bool) {
	for s.off < len(s.src) {
		c := s.peek(0)
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.advance(1)
		case c == '#' || (c == '/' && s.peek(1) == '/'):
			start := s.pos()
			end := lineend.Index(s.src[s.off:]) // a lone "\r" ends it too, as editors show
			if end < 0 {
				end = len(s.src) - s.off
			}
			s.advance(end)
			if s.mode&ScanComments != 0 {
				return Token{Kind: COMMENT, Text: s.src[start.Offset:s.off], Span: Span{start, s.pos()}}, false
			}
		case c == '/' && s.peek(1) == '*':
			start := s.pos()
			end := strings.Index(s.src[s.off+2:], "*/")
			tok := Token{Kind: DOC}
			if s.mode&ScanDocs == 0 {
				tok.Kind = COMMENT
			}
			if end < 0 {
				s.advance(len(s.src) - s.off)
				tok.Kind, tok.Err = ILLEGAL, "unterminated /* comment"
			} else {
				s.advance(end + 4)
			}
			tok.Text = s.src[start.Offset:s.off]
			tok.Span = Span{start, s.pos()}
			if tok.Kind == ILLEGAL || s.mode&(ScanDocs|ScanComments) != 0 {
				return tok, false
			}
		default:
			return Token{}, true
		}
	}
	return Token{}, true
}

// number scans INT, HEX_INT or FLOAT. A "." directly followed by another
// "." is not part of the number, so "1..3" is 1, "..", 3 (docs/queries.md).
func (s *Scanner) number() (Kind, string) {
	if s.peek(0) == '0' && (s.peek(1) == 'x' || s.peek(1) == 'X') {
		s.advance(2)
		n := 0
		for isHex(s.peek(0)) {
			s.advance(1)
			n++
		}
		if n == 0 {
			return s.badNumber("hexadecimal literal has no digits")
		}
		return s.endNumber(INT)
	}
	kind := INT
	s.digits()
	if s.peek(0) == '.' && s.peek(1) != '.' {
		kind = FLOAT
		s.advance(1)
		s.digits()
	}
	if c := s.peek(0); c == 'e' || c == 'E' {
		i := 1
		if s.peek(1) == '+' || s.peek(1) == '-' {
			i = 2
		}
		if isDigit(s.peek(i)) {
			kind = FLOAT
			s.advance(i)
			s.digits()
		}
	}
	return s.endNumber(kind)
}

func (s *Scanner) digits() {
	for isDigit(s.peek(0)) {
		s.advance(1)
	}
}

// endNumber rejects a number glued to a following word ("2x", "0x1g").
func (s *Scanner) endNumber(k Kind) (Kind, string) {
	if isLetter(s.peek(0)) || isDigit(s.peek(0)) {
		return s.badNumber("invalid number literal")
	}
	return k, ""
}

func (s *Scanner) badNumber(msg string) (Kind, string) {
	for isLetter(s.peek(0)) || isDigit(s.peek(0)) {
		s.advance(1)
	}
	return ILLEGAL, msg
}

// stringLit scans a quoted string with C-like escapes and decodes it.
func (s *Scanner) stringLit(quote byte) (Kind, string, string) {
	s.advance(1)
	var b strings.Builder
	for {
		c := s.peek(0)
		switch {
		case s.off >= len(s.src) || lineend.Is(c):
			return ILLEGAL, "", "unterminated string literal"
		case c == quote:
			s.advance(1)
			return STRING, b.String(), ""
		case c == '\\':
			if msg := s.escape(&b); msg != "" {
				s.skipString(quote)
				return ILLEGAL, "", msg
			}
		default:
			b.WriteByte(c)
			s.advance(1)
		}
	}
}

// skipString moves past the rest of a bad string literal, so that the
// scanner resumes after it.
func (s *Scanner) skipString(quote byte) {
	for s.off < len(s.src) && !lineend.Is(s.peek(0)) {
		c := s.peek(0)
		s.advance(1)
		if c == '\\' {
			s.advance(1)
		} else if c == quote {
			return
		}
	}
}

var simpleEscapes = map[byte]byte{
	'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v',
	'\\': '\\', '\'': '\'', '"': '"',
}

// escape decodes one escape sequence: \a \b \f \n \r \t \v \\ \' \",
// octal \o, \oo, \ooo (at most 0377), \xHH (one byte), \uHHHH and
// \UHHHHHHHH (a code point, written as UTF-8).
func (s *Scanner) escape(b *strings.Builder) string {
	c := s.peek(1)
	if r, ok := simpleEscapes[c]; ok {
		b.WriteByte(r)
		s.advance(2)
		return ""
	}
	switch {
	case c >= '0' && c <= '7':
		s.advance(1)
		v := 0
		for i := 0; i < 3 && s.peek(0) >= '0' && s.peek(0) <= '7'; i++ {
			v = v*8 + int(s.peek(0)-'0')
			s.advance(1)
		}
		if v > 0xFF {
			return "octal escape value > 255"
		}
		b.WriteByte(byte(v))
		return ""
	case c == 'x' || c == 'u' || c == 'U':
		n := 2
		if c == 'u' {
			n = 4
		} else if c == 'U' {
			n = 8
		}
		v := rune(0)
		for i := 0; i < n; i++ {
			d := s.peek(2 + i)
			if !isHex(d) {
				return fmt.Sprintf("escape \\%c needs %d hexadecimal digits", c, n)
			}
			v = v*16 + rune(hexVal(d))
		}
		s.advance(2 + n)
		if c == 'x' {
			b.WriteByte(byte(v))
		} else if !utf8.ValidRune(v) {
			return fmt.Sprintf("escape \\%c: invalid code point %#x", c, v)
		} else {
			b.WriteRune(v)
		}
		return ""
	}
	return fmt.Sprintf("unknown escape sequence %q", s.src[s.off:s.off+min(2, len(s.src)-s.off)])
}

func isLetter(c byte) bool { return c == '_' || (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f' }

func hexVal(c byte) int {
	if isDigit(c) {
		return int(c - '0')
	}
	return int(c|0x20-'a') + 10
}
