package expr

import (
	"errors"
	"hash/fnv"
	"math"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzVals gives every name a value: names starting with "b" are Bool,
// with "f" Real, the rest Int (derived from the name, zero included).
type fuzzVals struct{}

func (fuzzVals) Value(name string) (Value, bool) {
	h := fnv.New32a()
	h.Write([]byte(name))
	n := int64(h.Sum32()%7) - 3
	switch {
	case strings.HasPrefix(name, "b"):
		return BoolVal(n > 0), true
	case strings.HasPrefix(name, "f"):
		return RealVal(float64(n) / 2), true
	}
	return IntVal(n), true
}

func (fuzzVals) Atom(c *AtomCall) (Value, error) {
	if c.Name == "var" {
		return IntVal(int64(len(c.Args))), nil
	}
	return BoolVal(len(c.Args)%2 == 0), nil
}

func (fuzzVals) VarType(name string) (Type, bool) {
	v, ok := fuzzVals{}.Value(name)
	return v.Type(), ok
}

func (fuzzVals) AtomType(c *AtomCall) (Type, error) {
	if c.Name == "var" {
		return Int, nil
	}
	return Bool, nil
}

// checkRoundTrip asserts the printer/parser contract on one input.
func checkRoundTrip(t *testing.T, src string) {
	t.Helper()
	e, err := ParseExpr(src)
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) || !se.Span.Start.IsValid() {
			t.Fatalf("%q: error without a position: %#v", src, err)
		}
		return
	}
	checkSpans(t, src, e)
	out := Format(e)
	e2, err := ParseExpr(out)
	if err != nil {
		t.Fatalf("%q printed as %q, which does not parse: %v", src, out, err)
	}
	if !Equal(e, e2) {
		t.Fatalf("%q printed as %q changes the tree:\n %s\n %s", src, out, sexpr(e), sexpr(e2))
	}
	if out2 := Format(e2); out2 != out {
		t.Fatalf("%q: printing is not stable: %q then %q", src, out, out2)
	}
	// Neither the checker nor the evaluator may panic.
	_, _ = Check(e, fuzzVals{})
	_, _ = Eval(e, fuzzVals{})
}

// checkSpans asserts that every node's span lies within its parent's and
// that line:col agree with the byte offset.
func checkSpans(t *testing.T, src string, e Expr) {
	t.Helper()
	spanWalk(t, src, posTable(src), e)
}

func spanWalk(t *testing.T, src string, table []Pos, e Expr) {
	t.Helper()
	s := e.Span()
	if s.Start.Offset > s.End.Offset || s.End.Offset > len(src) || s.Start.Offset < 0 {
		t.Fatalf("%q: bad span %v for %s", src, s, sexpr(e))
	}
	for _, p := range []Pos{s.Start, s.End} {
		if want := table[p.Offset]; want != p {
			t.Fatalf("%q: position %+v, want %+v", src, p, want)
		}
	}
	for _, c := range children(e) {
		cs := c.Span()
		if cs.Start.Offset < s.Start.Offset || cs.End.Offset > s.End.Offset {
			t.Fatalf("%q: span %v-%v of %s outside its parent %s", src, cs.Start, cs.End, sexpr(c), sexpr(e))
		}
		spanWalk(t, src, table, c)
	}
}

func children(e Expr) []Expr {
	var out []Expr
	first := true
	Inspect(e, func(c Expr) bool {
		if first {
			first = false
			return true
		}
		if c != nil {
			out = append(out, c)
		}
		return false
	})
	return out
}

// posTable computes the position of every byte offset (and of the end)
// independently of the scanner: columns count runes as
// utf8.RuneCountInString does.
func posTable(src string) []Pos {
	table := make([]Pos, len(src)+1)
	line, lineStart := 1, 0
	for off := 0; off <= len(src); off++ {
		table[off] = Pos{Offset: off, Line: line, Col: 1 + utf8.RuneCountInString(src[lineStart:off])}
		if off < len(src) && src[off] == '\n' {
			line, lineStart = line+1, off+1
		}
	}
	return table
}

func FuzzParse(f *testing.F) {
	for _, s := range roundTripCorpus {
		f.Add(s)
	}
	for _, s := range []string{"", "(", "((x", "\"\\x", "0x", "1e", "1.e5", "..", "a..b", "/* x", "# c\nx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkRoundTrip(t, src)
	})
}

// FuzzEval evaluates whatever parses, with Ints past int64 among the
// variables: Eval never panics, and an Int result reads back exactly from
// its text.
func FuzzEval(f *testing.F) {
	for _, s := range roundTripCorpus {
		f.Add(s)
	}
	for _, s := range []string{"huge * huge - 1", "huge >> 70", "-huge % 7", "huge / 3", "huge + 0.5", "2 ** 65536", "1 << 65535", "floor(1e300) + huge", "sqrt(huge)", "huge == 1e20",
		"1 << 9223372036854775807", "huge << 9223372036854775807", "floor(inf)", "round(nan)", "sin(inf)", "cosh(ninf)", "exp(nan)"} {
		f.Add(s)
	}
	vars := Vars{"x": IntVal(7), "y": IntVal(0), "f": RealVal(2.5), "b": BoolVal(true), "huge": bigVal("-123456789012345678901234567890"),
		"inf": RealVal(math.Inf(1)), "ninf": RealVal(math.Inf(-1)), "nan": RealVal(math.NaN())}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := ParseExpr(src)
		if err != nil {
			return
		}
		v, err := Eval(e, vars)
		if err != nil || v.Type() != Int {
			return
		}
		if b, ok := new(big.Int).SetString(v.String(), 10); !ok || BigIntVal(b) != v {
			t.Fatalf("%s = %s does not read back", src, v)
		}
	})
}
