package expr

import "testing"

// roundTripCorpus is printed and re-parsed by TestRoundTrip and seeds
// FuzzParse.
var roundTripCorpus = []string{
	"1 + 2 * 3", "(1 + 2) * 3", "1 - (2 - 3)", "1 - 2 - 3", "2 ** 3 ** 2", "(2 ** 3) ** 2",
	"-2 ** 2", "-(2 ** 2)", "2 ** -1", "- -x", "-(-x)", "+x", "+-x", "x - -1",
	"7 / 2", "-7 % 2", "7 % -2", "-7.5 % 2", "a | b ^ c & d << 1 + 2 * 3 ** 4",
	"((a | b) ^ c) & d", "a << b >> c", "0x1F + 0XfF", "1.5e-3 + 3e2 + .5 + 1.", "1e16", "1e-5", "0.0001",
	"x > 0 && y < 3", "!x > 0", "!(x > 0) && !(y > 0)", "not x == 1", "!(x == 1)", "!!b",
	"a == b", "a != b", "(a == b) == c", "a == (b == c)", "x < 1 == y < 2", "x == 1 == (y > 0)",
	"p iff q", "p xor q iff r", "(p xor q) iff r", "p or q and r", "(p or q) and r",
	"p => q => r", "(p => q) => r", "p implies q", "true && True || TRUE", "false or False or FALSE",
	"(c) ? 1 : 2", "(x > 0) ? x : -x", "((x > 0)) ? 1 : 2.5", "(a) ? (b) ? 1 : 2 : (c) ? 3 : 4",
	"(a) ? 1 : 2 + 3", "1 + ((c) ? 1 : 2)", "((c) ? p : q) && r", "((c) ? (d) : (e)) ? 1 : 2",
	"sqrt(x) + abs(-3)", "sin(pi / 2) + cos(tau) + E", "round(2.5) + floor(x / 2) + ceil(1.5) + trunc(-1.5) + sign(x)",
	"log(x) + log10(x) + log2(x) + log1p(x) + exp(x) + cbrt(x)",
	"asin(x) + acos(x) + atan(x) + sinh(x) + cosh(x) + tanh(x) + asinh(x) + acosh(x) + atanh(x) + tan(x)",
	`active("Root.A")`, `active('Root.A', current)`, `terminated()`, `var("cycle") + cycle`,
	`event("Root.Go", current)`, `case("Root.Idle::transition::Root.Done::0")`,
	`called("Root.Idle.Tick", step=0, role="leaf_during", where x == 0) && call_count("Root.Idle.Tick", step=*) == 1`,
	`call_count(step=-1..+2) + call_count(step=..3) + call_count(step=2..) + call_count(step=..)`,
	`call_count("A", 1..3, named_ref=null, state="Root.A")`, `f(where)`, `f((where) + 1)`, `f(where x > 0)`,
	`f((where)..3)`, `f(*, .., 1..2)`, `"a\"b\\c\n\t\x01é"`, `s("\u00e9\U0001F600\xff")`,
	"retry >= 0 && retry <= 3", "x // comment\n+ 1", "x # comment\n+ 1", "x /* doc */ + 1",
	"a\n  +\tb", "(((x)))", "-9223372036854775807 - 1", "9223372036854775807", "1.7976931348623157e308",
	"9223372036854775808", "-18446744073709551616 * x", "0x10000000000000000 + 1", "-(123456789012345678901234567890 ** 2)",
}

func TestRoundTrip(t *testing.T) {
	for _, src := range roundTripCorpus {
		if _, err := ParseExpr(src); err != nil {
			t.Errorf("corpus entry %q does not parse: %v", src, err)
			continue
		}
		checkRoundTrip(t, src)
	}
}

func TestFormatCanonical(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"a+b*c", "a + b * c"},
		{"(a+b)*c", "(a + b) * c"},
		{"a-(b-c)", "a - (b - c)"},
		{"(a-b)-c", "a - b - c"},
		{"a**(b**c)", "a ** b ** c"},
		{"(a**b)**c", "(a ** b) ** c"},
		{"-2**2", "(-2) ** 2"}, // explicit, as docs/fcstm.md asks
		{"-(2**2)", "-(2 ** 2)"},
		{"- -x", "-(-x)"},
		{"x - -1", "x - -1"},
		{"a and b or not c", "a && b || !c"},
		{"p implies q", "p => q"},
		{"!x > 0", "!(x > 0)"},
		{"not (a and b)", "!(a && b)"},
		{"x < 1 == y < 2", "(x < 1) == (y < 2)"},
		{"a == b == c", "(a == b) == c"},
		{"p iff q != r", "(p iff q) != r"},
		{"(a | b) < c", "a | b < c"},
		{"TRUE || False", "true || false"},
		{"0x1F", "31"},
		{"1.", "1.0"}, {".5", "0.5"}, {"3e2", "300.0"}, {"1.5e-3", "0.0015"}, {"1e16", "1e+16"}, {"1e-5", "1e-05"},
		{"(c) ? (d) ? 1 : 2 : (e) ? 3 : 4", "(c) ? ((d) ? 1 : 2) : (e) ? 3 : 4"},
		{"((c)) ? x : y", "(c) ? x : y"},
		{"1 + ((c) ? 1 : 2)", "1 + ((c) ? 1 : 2)"},
		{`active('Root.A')`, `active("Root.A")`},
		{`f("it's", 'say "hi"', "\u00e9\x01\t")`, `f("it's", "say \"hi\"", "é\x01\t")`},
		{`called("A",step = -1 .. +2,where x==0)`, `called("A", step=-1..+2, where x == 0)`},
		{`f(where)`, `f((where))`},
		{`f(where, ..)`, `f((where), ..)`},
		{"x // comment\n  + 1", "x + 1"},
	} {
		if got := Format(mustParse(t, c.src)); got != c.want {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
	// Code-built trees.
	for _, c := range []struct {
		e    Expr
		want string
	}{
		{&Binary{Op: Pow, X: &IntLit{Value: -2}, Y: &IntLit{Value: 2}}, "(-2) ** 2"},
		{&Unary{Op: Neg, X: &IntLit{Value: -2}}, "-(-2)"},
		{&FloatLit{Value: 2}, "2.0"},
		{&Binary{Op: Add, X: &Ident{Name: "x"}, Y: nil}, "x + <nil>"},
	} {
		if got := Format(c.e); got != c.want {
			t.Errorf("%s: got %q, want %q", sexpr(c.e), got, c.want)
		}
	}
}
