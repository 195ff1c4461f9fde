package expr

import (
	"errors"
	"strings"
	"testing"
)

func mustParse(t *testing.T, src string) Expr {
	t.Helper()
	e, err := ParseExpr(src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return e
}

// TestPrecedence pins the merged precedence table (doc.go) level by level.
func TestPrecedence(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		// numeric levels, docs/fcstm.md (loosest first: | ^ & shifts + * ** unary)
		{"a | b ^ c", "(| a (^ b c))"},
		{"a ^ b & c", "(^ a (& b c))"},
		{"a & b << c", "(& a (<< b c))"},
		{"a << b + c", "(<< a (+ b c))"},
		{"a + b * c", "(+ a (* b c))"},
		{"a * b ** c", "(* a (** b c))"},
		{"a | b | c", "(| (| a b) c)"},
		{"a ^ b ^ c", "(^ (^ a b) c)"},
		{"a & b & c", "(& (& a b) c)"},
		{"a << b >> c", "(>> (<< a b) c)"},
		{"a - b + c", "(+ (- a b) c)"},
		{"a / b * c % d", "(% (* (/ a b) c) d)"},
		{"a ** b ** c", "(** a (** b c))"},
		{"-2 ** 2", "(** (- 2) 2)"}, // unary binds tighter than ** (docs/fcstm.md)
		{"2 ** -1", "(** 2 (- 1))"},
		{"-a * b", "(* (- a) b)"},
		{"- - a", "(- (- a))"},
		{"+a", "(+ a)"},
		{"-x ** 2 ** y", "(** (- x) (** 2 y))"},
		// comparisons take whole numeric expressions
		{"a | b < c & d", "(< (| a b) (& c d))"},
		{"a + 1 == b * 2", "(== (+ a 1) (* b 2))"},
		{"x < 1 == y < 2", "(== (< x 1) (< y 2))"},
		// condition levels (loosest first: => || xor && ==/!=/iff ! comparisons)
		{"a => b || c", "(=> a (|| b c))"},
		{"a || b xor c", "(|| a (xor b c))"},
		{"a xor b && c", "(xor a (&& b c))"},
		{"a && b == c", "(&& a (== b c))"},
		{"a && b iff c", "(&& a (iff b c))"},
		{"a => b => c", "(=> a (=> b c))"},
		{"a || b || c", "(|| (|| a b) c)"},
		{"a xor b xor c", "(xor (xor a b) c)"},
		{"a && b && c", "(&& (&& a b) c)"},
		{"a == b != c iff d", "(iff (!= (== a b) c) d)"},
		{"a implies b or c and not d", "(=> a (|| b (&& c (! d))))"},
		// "!" binds looser than the comparisons and tighter than ==/iff
		{"!x > 0", "(! (> x 0))"},
		{"not x <= y + 1", "(! (<= x (+ y 1)))"},
		{"!a == b", "(== (! a) b)"},
		{"!a && b", "(&& (! a) b)"},
		{"!!a", "(! (! a))"},
		{"a == !b", "(== a (! b))"},
		// conditional: loosest, condition parenthesised, branches full expressions
		{"(c) ? a : b", "(?: c a b)"},
		{"(c) ? a + 1 : b * 2", "(?: c (+ a 1) (* b 2))"},
		{"(c) ? a : b || d", "(?: c a (|| b d))"},
		{"(c) ? a : (d) ? e : f", "(?: c a (?: d e f))"},
		{"(c) ? (d) ? e : f : g", "(?: c (?: d e f) g)"},
		{"((c)) ? a : b", "(?: c a b)"},
		{"(x > 0 && y) ? 1 : 2", "(?: (&& (> x 0) y) 1 2)"},
		{"1 + ((c) ? 1 : 2)", "(+ 1 (?: c 1 2))"},
		// literals and primaries
		{"0x1F + 10", "(+ 31 10)"},
		{"pi + E + tau", "(+ (+ pi E) tau)"},
		{"True && FALSE", "(&& true false)"},
		{"sqrt(x + 1)", "(sqrt (+ x 1))"},
		{"abs((c) ? -1 : 1)", "(abs (?: c (- 1) 1))"},
	} {
		if got := sexpr(mustParse(t, c.src)); got != c.want {
			t.Errorf("%q: got %s, want %s", c.src, got, c.want)
		}
	}
}

func TestAtomCalls(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`active("Root.A")`, `active["Root.A"]`},
		{`active("Root.A", current)`, `active["Root.A" current]`},
		{`terminated()`, `terminated[]`},
		{`var("cycle") + cycle`, `(+ var["cycle"] cycle)`},
		{`event("Root.Go", current)`, `event["Root.Go" current]`},
		{`called("A", step=0, role="leaf_during", where x == 0)`,
			`called["A" step=0 role="leaf_during" where:(== x 0)]`},
		{`call_count("A", step=*)`, `call_count["A" step=*]`},
		{`call_count(step=-1..+2, 3..)`, `call_count[step=(.. (- 1) (+ 2)) (.. 3 nil)]`},
		{`call_count(..4, .., 1..2)`, `call_count[(.. nil 4) (.. nil nil) (.. 1 2)]`},
		{`f(named_ref=null, state="Root.A")`, `f[named_ref=null state="Root.A"]`},
		{`f(where)`, `f[where]`},
		{`f(where, x)`, `f[where x]`},
		{`f(where=1)`, `f[where=1]`},
		{`f(where (x > 0))`, `f[where:(> x 0)]`},
		{`f(g(1), -x, (c) ? 1 : 2)`, `f[g[1] (- x) (?: c 1 2)]`},
		{`f(x == 1)`, `f[(== x 1)]`},
	} {
		if got := sexpr(mustParse(t, c.src)); got != c.want {
			t.Errorf("%q: got %s, want %s", c.src, got, c.want)
		}
	}
}

func TestSpans(t *testing.T) {
	e := mustParse(t, "a +\n  (b * c)")
	b := e.(*Binary)
	if got := b.Span(); got.Start.String() != "1:1" || got.End.String() != "2:10" {
		t.Errorf("binary span %v-%v", got.Start, got.End)
	}
	// A parenthesised node's span includes its parentheses.
	if got := b.Y.Span(); got.Start.String() != "2:3" || got.End.String() != "2:10" {
		t.Errorf("paren span %v-%v", got.Start, got.End)
	}
	inner := b.Y.(*Binary).X
	if got := inner.Span(); got.Start.String() != "2:4" || got.End.String() != "2:5" {
		t.Errorf("ident span %v-%v", got.Start, got.End)
	}
	call := mustParse(t, `called("A", step=1..2)`).(*AtomCall)
	if a := call.Args[1]; a.Loc.Start.String() != "1:13" || a.Loc.End.String() != "1:22" || a.Value.Span().Start.String() != "1:18" {
		t.Errorf("named arg span %v-%v value at %v", a.Loc.Start, a.Loc.End, a.Value.Span().Start)
	}
	checkSpans(t, "(c) ? x : -y", mustParse(t, "(c) ? x : -y"))
}

func TestSyntaxErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "1:1: expected an expression, found end of input"},
		{"1 +", "1:4: expected an expression, found end of input"},
		{"1 +\n  * 2", `2:3: expected an expression, found "*"`},
		{"(1 + 2", `1:7: expected ")", found end of input`},
		{"(1 + 2]", `1:7: expected ")", found "]"`},
		{"a b", `1:3: expected an operator or end of input, found identifier "b"`},
		{"a and", `1:6: expected an expression, found end of input`},
		{"a + and", `1:5: expected an expression, found keyword "and"`},
		{"x = 1", `1:3: unexpected "=" after expression (comparison is "==")`},
		{"a < b < c", "1:7: comparisons cannot be chained; combine them with &&"},
		{"a < b >= c", "1:7: comparisons cannot be chained; combine them with &&"},
		{"x ? 1 : 2", `1:1: the condition of "?:" must be in parentheses: (c) ? a : b`},
		{"(a) && (b) ? 1 : 2", `1:1: the condition of "?:" must be in parentheses: (c) ? a : b`},
		{"1 + (c) ? 1 : 2", `1:1: the condition of "?:" must be in parentheses: (c) ? a : b`},
		{"(c) ? 1", `1:8: expected ":" of the conditional expression, found end of input`},
		{"(c) ? 1 : ", `1:11: expected an expression, found end of input`},
		{"1 + !x", `1:5: "!" cannot be an operand here; put the negation in parentheses`},
		{"x < not y", `1:5: "not" cannot be an operand here; put the negation in parentheses`},
		{"sin x", `1:5: expected "(" after sin, found identifier "x"`},
		{"sin(x, y)", "1:6: sin takes exactly one argument"},
		{"abs()", `1:5: expected an expression, found ")"`},
		{"f(1 2)", `1:5: expected "," or ")" in the argument list, found number 2`},
		{"f(1,)", `1:5: expected an expression, found ")"`},
		{"f(x=)", `1:5: expected an expression, found ")"`},
		{"2x + 1", `1:1: invalid number literal "2x"`},
		{"x + 0x" + strings.Repeat("F", 16385), "1:5: integer literal 0xFFFFFFFFFFFFFFFFFF…FFFFFFFFFF is too large (over 65536 bits)"},
		{strings.Repeat("9", 20000), "1:1: integer literal 99999999999999999999…9999999999 is too large (over 65536 bits)"},
		{"1e400", "1:1: float literal 1e400 out of range"},
		{`"abc`, "1:1: unterminated string literal"},
		{"x + $", `1:5: unexpected character '$'`},
		{"x $", `1:3: unexpected character '$'`},
		{"x /* doc", "1:3: unterminated /* comment"},
		{"1..3", `1:2: expected an operator or end of input, found ".."`},
		{"*", `1:1: expected an expression, found "*"`},
		{"(c) ? 1 : 2 ? 3 : 4", `1:11: the condition of "?:" must be in parentheses: (c) ? a : b`},
	} {
		_, err := ParseExpr(c.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a SyntaxError", c.src, err)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got  %s\n want %s", c.src, err, c.want)
		}
	}
}

func TestUnderflowLiteral(t *testing.T) {
	// Underflow rounds to zero (as Python's float literals do); only
	// overflow is an error.
	if e := mustParse(t, "1e-400"); e.(*FloatLit).Value != 0 {
		t.Errorf("1e-400 = %v", e.(*FloatLit).Value)
	}
}

func TestNestingLimits(t *testing.T) {
	deep := strings.Repeat("(", maxNesting+5) + "x" + strings.Repeat(")", maxNesting+5)
	if _, err := ParseExpr(deep); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("deep parentheses: %v", err)
	}
	for _, src := range []string{
		strings.Repeat("-", maxNesting+5) + "x",
		strings.Repeat("!", maxNesting+5) + "x",
		strings.Repeat("x ** ", maxNesting+5) + "x",
		strings.Repeat("(c) ? 1 : ", maxNesting+5) + "x",
		strings.Repeat("x + ", maxHeight+5) + "x",
	} {
		if _, err := ParseExpr(src); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("%.20s...: %v", src, err)
		}
	}
	ok := strings.Repeat("(", 500) + "x" + strings.Repeat(")", 500)
	if _, err := ParseExpr(ok); err != nil {
		t.Errorf("500 parentheses: %v", err)
	}
}

func TestParseExprAt(t *testing.T) {
	src := "rsc \"WAIT\": retry >= 0 && retry <= 3; rsc \"B\": x;"
	off := strings.Index(src, "retry")
	e, end, err := ParseExprAt(src, off)
	if err != nil {
		t.Fatal(err)
	}
	if got := Format(e); got != "retry >= 0 && retry <= 3" {
		t.Errorf("got %q", got)
	}
	if src[end:end+1] != ";" {
		t.Errorf("end offset %d points at %q", end, src[end:])
	}
	if p := e.Span().Start; p.Line != 1 || p.Col != off+1 || p.Offset != off {
		t.Errorf("start %+v", p)
	}
	// A guard inside brackets stops at "]"; positions are file positions.
	src = "state A {\n  A -> B : if [x > 0 && y < 1] effect { x = x - 1; }\n}"
	off = strings.Index(src, "x > 0")
	e, end, err = ParseExprAt(src, off)
	if err != nil || src[end] != ']' || e.Span().Start.String() != "2:16" {
		t.Errorf("guard: %v end %d %v", err, end, e)
	}
	// Errors carry file positions.
	src = "check reach <= 3:\n  x > ;"
	_, _, err = ParseExprAt(src, strings.Index(src, "x"))
	if err == nil || err.Error() != `2:7: expected an expression, found ";"` {
		t.Errorf("error: %v", err)
	}
}

func TestParserEmbedding(t *testing.T) {
	// An embedding parser (here: "trigger c -> within N r") drives the
	// token stream itself and calls ParseExpr for the expressions.
	src := `trigger event("Root.Go", current) -> within 2 active("Root.Done");`
	p := NewParser(NewScanner(src, 0))
	if tok := p.Next(); tok.Kind != IDENT || tok.Text != "trigger" {
		t.Fatalf("first token %+v", tok)
	}
	trig, err := p.ParseExpr()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Expect(ARROW); err != nil {
		t.Fatal(err)
	}
	if tok := p.Next(); tok.Text != "within" {
		t.Fatalf("got %+v", tok)
	}
	if tok := p.Next(); tok.Kind != INT || tok.Text != "2" {
		t.Fatalf("got %+v", tok)
	}
	target, err := p.ParseExpr()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Expect(SEMI); err != nil {
		t.Fatal(err)
	}
	if p.Peek().Kind != EOF || p.End().Offset != len(src) {
		t.Errorf("not at the end: %+v %+v", p.Peek(), p.End())
	}
	if Format(trig) != `event("Root.Go", current)` || Format(target) != `active("Root.Done")` {
		t.Errorf("got %s / %s", Format(trig), Format(target))
	}
	_, err = p.Expect(SEMI)
	if err == nil || err.Error() != `1:67: expected ";", found end of input` {
		t.Errorf("Expect error: %v", err)
	}
	// FCSTM mode: a documentation block inside an expression is an error.
	p = NewParser(NewScanner("x + /* doc */ y", ScanDocs))
	if _, err := p.ParseExpr(); err == nil || err.Error() != "1:5: expected an expression, found documentation block" {
		t.Errorf("doc block: %v", err)
	}
}

// TestDeepRoundTrip: the printer's readability parentheses compound on
// some chains (a fuzzing finding: a 900-deep "-" chain printed as
// "-(-(…))" went past the nesting limit); every tree within the height
// limit must still print to text that parses back.
func TestDeepRoundTrip(t *testing.T) {
	n := maxHeight - 10
	for _, src := range []string{
		strings.Repeat("-", n) + "x",
		strings.Repeat("!", n) + "(x > 0)",
		strings.Repeat("x == ", n) + "x",
		strings.Repeat("(c) ? (", n/2) + "1" + strings.Repeat(") : 2", n/2),
		strings.Repeat("-(", n/2) + "x" + strings.Repeat(") ** 2", n/2),
		strings.Repeat("!(", n/2) + "x > 0" + strings.Repeat(") > 0", n/2),
		strings.Repeat("(", n/2) + "x < 1" + strings.Repeat(" == p) < 2", n/2),
	} {
		if _, err := ParseExpr(src); err != nil {
			t.Fatalf("%.30s...: %v", src, err)
		}
		checkRoundTrip(t, src)
	}
}
