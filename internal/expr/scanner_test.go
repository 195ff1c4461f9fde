package expr

import (
	"strings"
	"testing"
)

type tokWant struct {
	kind Kind
	text string
	pos  string // line:col of the start
}

func scanAll(src string, mode Mode) []Token {
	s := NewScanner(src, mode)
	var out []Token
	for {
		t := s.Scan()
		out = append(out, t)
		if t.Kind == EOF || len(out) > 1000 {
			return out
		}
	}
}

func checkTokens(t *testing.T, src string, mode Mode, want []tokWant) {
	t.Helper()
	got := scanAll(src, mode)
	if len(got) != len(want) {
		var b strings.Builder
		for _, g := range got {
			b.WriteString(g.Kind.String() + " " + g.Text + " | ")
		}
		t.Fatalf("%q: %d tokens, want %d: %s", src, len(got), len(want), b.String())
	}
	for i, w := range want {
		g := got[i]
		if g.Kind != w.kind || g.Text != w.text || g.Span.Start.String() != w.pos {
			t.Errorf("%q token %d: got %v %q at %v (err %q), want %v %q at %s",
				src, i, g.Kind, g.Text, g.Span.Start, g.Err, w.kind, w.text, w.pos)
		}
	}
}

func TestScanOperators(t *testing.T) {
	src := "[*] ** >> << <= >= == != && || => := :: -> .. ; , { } [ ] ( ) ? : . / * ! + - % & ^ | < > ="
	var want []tokWant
	col := 1
	for _, f := range strings.Fields(src) {
		var k Kind
		for _, p := range punct {
			if p.text == f {
				k = p.kind
			}
		}
		want = append(want, tokWant{k, f, "1:" + itoa(col)})
		col += len(f) + 1
	}
	want = append(want, tokWant{EOF, "", "1:" + itoa(col-1)})
	checkTokens(t, src, 0, want)
}

func itoa(i int) string { return Format(&IntLit{Value: int64(i)}) }

func TestScanLongestMatch(t *testing.T) {
	checkTokens(t, "x<-1", 0, []tokWant{{IDENT, "x", "1:1"}, {LSS, "<", "1:2"}, {SUB, "-", "1:3"}, {INT, "1", "1:4"}, {EOF, "", "1:5"}})
	checkTokens(t, "a=>b", 0, []tokWant{{IDENT, "a", "1:1"}, {IMPLIES, "=>", "1:2"}, {IDENT, "b", "1:4"}, {EOF, "", "1:5"}})
	checkTokens(t, "2***3", 0, []tokWant{{INT, "2", "1:1"}, {POW, "**", "1:2"}, {MUL, "*", "1:4"}, {INT, "3", "1:5"}, {EOF, "", "1:6"}})
	checkTokens(t, "[ * ]", 0, []tokWant{{LBRACK, "[", "1:1"}, {MUL, "*", "1:3"}, {RBRACK, "]", "1:5"}, {EOF, "", "1:6"}})
}

func TestScanNumbers(t *testing.T) {
	for _, c := range []struct {
		src  string
		kind Kind
	}{
		{"0", INT}, {"123", INT}, {"007", INT}, {"0x1F", INT}, {"0XaB", INT},
		{"1.", FLOAT}, {"1.5", FLOAT}, {".5", FLOAT}, {"3e2", FLOAT}, {"1.5e-3", FLOAT},
		{"1E+4", FLOAT}, {"1.e5", FLOAT}, {".5e1", FLOAT},
	} {
		checkTokens(t, c.src, 0, []tokWant{{c.kind, c.src, "1:1"}, {EOF, "", "1:" + itoa(len(c.src)+1)}})
	}
	// A "." followed by "." ends the number: 1..3 is a range (docs/queries.md).
	checkTokens(t, "1..3", 0, []tokWant{{INT, "1", "1:1"}, {DOTDOT, "..", "1:2"}, {INT, "3", "1:4"}, {EOF, "", "1:5"}})
	checkTokens(t, "1.5..+2", 0, []tokWant{{FLOAT, "1.5", "1:1"}, {DOTDOT, "..", "1:4"}, {ADD, "+", "1:6"}, {INT, "2", "1:7"}, {EOF, "", "1:8"}})
	checkTokens(t, "..5", 0, []tokWant{{DOTDOT, "..", "1:1"}, {INT, "5", "1:3"}, {EOF, "", "1:4"}})
	checkTokens(t, "A.B", 0, []tokWant{{IDENT, "A", "1:1"}, {DOT, ".", "1:2"}, {IDENT, "B", "1:3"}, {EOF, "", "1:4"}})
	for _, c := range []struct{ src, err string }{
		{"2x", `invalid number literal "2x"`},
		{"0x", `hexadecimal literal has no digits "0x"`},
		{"0x1g", `invalid number literal "0x1g"`},
		{"3e", `invalid number literal "3e"`},
		{"1.5_0", `invalid number literal "1.5_0"`},
	} {
		got := scanAll(c.src, 0)
		if got[0].Kind != ILLEGAL || got[0].Err != c.err || got[0].Text != c.src {
			t.Errorf("%q: got %v %q err %q, want ILLEGAL %q", c.src, got[0].Kind, got[0].Text, got[0].Err, c.err)
		}
	}
}

func TestScanStrings(t *testing.T) {
	for _, c := range []struct{ src, value string }{
		{`"Root.A"`, "Root.A"},
		{`'Root.A'`, "Root.A"},
		{`"it's"`, "it's"},
		{`'say "hi"'`, `say "hi"`},
		{`"a\nb\tc\\d\"e\'f"`, "a\nb\tc\\d\"e'f"},
		{`"\a\b\f\v\r\0"`, "\a\b\f\v\r\x00"},
		{`"\101\x41\u00e9\U0001F600"`, "AAé\U0001F600"},
		{`"\xff"`, "\xff"},
		{`"é"`, "é"},
	} {
		got := scanAll(c.src, 0)
		if got[0].Kind != STRING || got[0].Value != c.value || got[0].Text != c.src {
			t.Errorf("%s: got %v %q (err %q), want %q", c.src, got[0].Kind, got[0].Value, got[0].Err, c.value)
		}
	}
	for _, c := range []struct{ src, err string }{
		{`"abc`, "unterminated string literal"},
		{"\"ab\nc\"", "unterminated string literal"},
		{`"\q"`, `unknown escape sequence "\\q"`},
		{`"\x4"`, `escape \x needs 2 hexadecimal digits`},
		{`"\777"`, "octal escape value > 255"},
		{`"\uD800"`, `escape \u: invalid code point 0xd800`},
	} {
		got := scanAll(c.src, 0)
		if got[0].Kind != ILLEGAL || got[0].Err != c.err {
			t.Errorf("%s: got %v err %q, want %q", c.src, got[0].Kind, got[0].Err, c.err)
		}
	}
	// After a bad escape the scanner resumes behind the literal.
	got := scanAll(`"\q" + 1`, 0)
	if len(got) != 4 || got[1].Kind != ADD || got[1].Span.Start.String() != "1:6" {
		t.Errorf("no resync after a bad string: %+v", got)
	}
}

func TestScanCommentsAndDocs(t *testing.T) {
	checkTokens(t, "x // c\n# d\n  y", 0, []tokWant{{IDENT, "x", "1:1"}, {IDENT, "y", "3:3"}, {EOF, "", "3:4"}})
	checkTokens(t, "x /* a\nb */ y", 0, []tokWant{{IDENT, "x", "1:1"}, {IDENT, "y", "2:6"}, {EOF, "", "2:7"}})
	checkTokens(t, "x /* a */ y", ScanDocs, []tokWant{{IDENT, "x", "1:1"}, {DOC, "/* a */", "1:3"}, {IDENT, "y", "1:11"}, {EOF, "", "1:12"}})
	got := scanAll("x /* open", 0)
	if got[1].Kind != ILLEGAL || got[1].Err != "unterminated /* comment" || got[1].Span.Start.String() != "1:3" {
		t.Errorf("unterminated comment: %+v", got[1])
	}
	// "/" alone stays division.
	checkTokens(t, "a/b", 0, []tokWant{{IDENT, "a", "1:1"}, {QUO, "/", "1:2"}, {IDENT, "b", "1:3"}, {EOF, "", "1:4"}})
}

func TestScanPositions(t *testing.T) {
	// Columns count runes; offsets count bytes; \r\n ends a line.
	src := "\"éé\" + x\r\n\t y"
	got := scanAll(src, 0)
	want := []struct {
		pos, end string
		off      int
	}{{"1:1", "1:5", 0}, {"1:6", "1:7", 7}, {"1:8", "1:9", 9}, {"2:3", "2:4", 14}}
	for i, w := range want {
		g := got[i]
		if g.Span.Start.String() != w.pos || g.Span.End.String() != w.end || g.Span.Start.Offset != w.off {
			t.Errorf("token %d %q: %v-%v offset %d, want %s-%s offset %d", i, g.Text,
				g.Span.Start, g.Span.End, g.Span.Start.Offset, w.pos, w.end, w.off)
		}
	}
	// An invalid UTF-8 byte is one column (fuzz regression f54353d90f14d011).
	got = scanAll("(\"\x9d\")", 0)
	if got[2].Span.Start.String() != "1:5" {
		t.Errorf("column after an invalid byte: %v", got[2].Span.Start)
	}
	got = scanAll("x $", 0)
	if got[1].Kind != ILLEGAL || got[1].Err != `unexpected character '$'` {
		t.Errorf("bad character: %+v", got[1])
	}
}

func TestScannerAt(t *testing.T) {
	src := "rsc \"WAIT\":\n  retry >= 0;"
	off := strings.Index(src, "retry")
	s := NewScannerAt(src, off, 0)
	tok := s.Scan()
	if tok.Text != "retry" || tok.Span.Start != (Pos{Offset: off, Line: 2, Col: 3}) {
		t.Errorf("got %q at %+v", tok.Text, tok.Span.Start)
	}
	if tok := NewScannerAt(src, 1000, 0).Scan(); tok.Kind != EOF {
		t.Errorf("offset past the end: %v", tok.Kind)
	}
}

// TestScanComments: with ScanComments every comment comes back as a token
// in place (a formatter must not lose one); without it, "//" and "#"
// comments are skipped as before.
func TestScanComments(t *testing.T) {
	src := "a // one  \n# two\nb /* three */ c"
	checkTokens(t, src, ScanComments, []tokWant{
		{IDENT, "a", "1:1"}, {COMMENT, "// one  ", "1:3"}, {COMMENT, "# two", "2:1"},
		{IDENT, "b", "3:1"}, {COMMENT, "/* three */", "3:3"}, {IDENT, "c", "3:15"}, {EOF, "", "3:16"},
	})
	checkTokens(t, src, ScanComments|ScanDocs, []tokWant{
		{IDENT, "a", "1:1"}, {COMMENT, "// one  ", "1:3"}, {COMMENT, "# two", "2:1"},
		{IDENT, "b", "3:1"}, {DOC, "/* three */", "3:3"}, {IDENT, "c", "3:15"}, {EOF, "", "3:16"},
	})
	checkTokens(t, src, ScanDocs, []tokWant{
		{IDENT, "a", "1:1"}, {IDENT, "b", "3:1"}, {DOC, "/* three */", "3:3"}, {IDENT, "c", "3:15"}, {EOF, "", "3:16"},
	})
	checkTokens(t, "x // end", ScanComments, []tokWant{
		{IDENT, "x", "1:1"}, {COMMENT, "// end", "1:3"}, {EOF, "", "1:9"},
	})
}

// TestScanLoneCR: "\n", "\r\n" and a lone "\r" each end a line (package
// lineend), so a line comment stops at a lone "\r" and the code after it
// is scanned, at the line and column an editor shows (issue 38 item 8.1:
// "x = x + 1; // count" CR "x = 100;" made "x = 100;" comment text).
func TestScanLoneCR(t *testing.T) {
	checkTokens(t, "a // c\rb # d\r\ne /* f\rg */ h\n\ri", 0, []tokWant{
		{IDENT, "a", "1:1"}, {IDENT, "b", "2:1"}, {IDENT, "e", "3:1"},
		{IDENT, "h", "4:6"}, {IDENT, "i", "6:1"}, {EOF, "", "6:2"},
	})
	checkTokens(t, "a // c\rb", ScanComments, []tokWant{
		{IDENT, "a", "1:1"}, {COMMENT, "// c", "1:3"}, {IDENT, "b", "2:1"}, {EOF, "", "2:2"},
	})
	// A string literal ends at a line end of any kind.
	if got := scanAll("\"a\rb\"", 0); got[0].Kind != ILLEGAL || got[0].Err != "unterminated string literal" {
		t.Errorf("string across a lone CR: %+v", got[0])
	}
	// Restarting inside the text counts the lines before the same way.
	src := "x\ry\r\nz"
	off := strings.IndexByte(src, 'z')
	if tok := NewScannerAt(src, off, 0).Scan(); tok.Span.Start != (Pos{Offset: off, Line: 3, Col: 1}) {
		t.Errorf("NewScannerAt after CR and CRLF: %+v", tok.Span.Start)
	}
	if tok := NewScannerAtLine(src, off, 3, 0).Scan(); tok.Span.Start.Col != 1 {
		t.Errorf("NewScannerAtLine column after CRLF: %+v", tok.Span.Start)
	}
}
