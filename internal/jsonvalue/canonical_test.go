package jsonvalue

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	tenth, fifth := 0.1, 0.2 // variables, so the sum is rounded as doubles, not folded exactly
	cases := []struct {
		in   float64
		want string
	}{
		{1.0, "1"}, {math.Copysign(0, -1), "0"}, {0.5, "0.5"}, {-1.25, "-1.25"},
		{tenth + fifth, "0.30000000000000004"}, {1e-6, "0.000001"}, {1e-7, "1e-7"},
		{5e-7, "5e-7"}, {123e-20, "1.23e-18"}, {1e16, "10000000000000000"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"},
		{1.2345678901234568e20, "123456789012345680000"}, {1.5e300, "1.5e+300"},
		{100, "100"}, {123.456, "123.456"}, {-5e-324, "-5e-324"},
	}
	for _, c := range cases {
		if got := FormatNumber(c.in); got != c.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func mustParse(t *testing.T, s string) *Value {
	t.Helper()
	v, err := Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return v
}

// The vectors of docs/models.md.
func TestHashVectors(t *testing.T) {
	modelA := `{"schemaVersion":1,"init":"INIT","states":[{"id":"INIT"},{"id":"ACTIVE","terminal":true}],"transitions":[{"from":"INIT","event":"go","to":"ACTIVE"}]}`
	wantCanon := `{"init":"INIT","schemaVersion":1,"states":[{"id":"INIT"},{"id":"ACTIVE","terminal":true}],"transitions":[{"event":"go","from":"INIT","to":"ACTIVE"}]}`
	a := mustParse(t, modelA)
	if got := string(Canonical(a, true)); got != wantCanon {
		t.Errorf("canonical A = %s", got)
	}
	const hashA = "175f9d049672843603019266dffa60c7aa32674b707542949fedfacd4aa3d3d8"
	if got := Hash(a, true); got != hashA {
		t.Errorf("hash A = %s", got)
	}
	withMeta := mustParse(t, `{"_source":"docs/uml/order.model.json","schemaVersion":1,"init":"INIT","states":[{"id":"INIT","_note":"power-on"},{"id":"ACTIVE","terminal":true}],"transitions":[{"from":"INIT","event":"go","to":"ACTIVE"}]}`)
	if got := Hash(withMeta, true); got != hashA {
		t.Errorf("v1 hash of A with metadata = %s", got)
	}
	if got := Hash(withMeta, false); got != "ae637d559f4683d8a0ce3a5c6d007ff378b1df41eac14eb82068038f39665e76" {
		t.Errorf("v0 hash of A with metadata = %s", got)
	}
	modelB := `{"schemaVersion":1,"init":"INIT","states":[{"id":"INIT"},{"id":"RETRY"},{"id":"FATAL","terminal":true}],"transitions":[{"from":"INIT","event":"timeout","guard":{"variable":"retry","op":"<","value":3},"to":"RETRY","updates":[{"variable":"retry","op":"inc"}]},{"from":"INIT","event":"timeout","guard":{"variable":"retry","op":">=","value":3},"to":"FATAL"}],"variables":[{"name":"retry","kind":"integer","init":0,"min":0,"max":3}],"boundaryChecks":[{"variable":"retry","values":[0,1,2,3]}]}`
	if got := Hash(mustParse(t, modelB), true); got != "491d3ae3313a1c31f8f9c7c137148f860a29004f3b12c137a0f1de476688c822" {
		t.Errorf("hash B = %s", got)
	}
	stress := mustParse(t, "{\"b\":1.0,\"a\":[0.5,1e21,1e-7],\"é\":\"réussi\",\"😀\":1,\"\uFFFD\":2,\"z\\n\":\"\\t\"}")
	wantStress := "{\"a\":[0.5,1e+21,1e-7],\"b\":1,\"z\\n\":\"\\t\",\"é\":\"réussi\",\"😀\":1,\"\uFFFD\":2}"
	if got := string(Canonical(stress, true)); got != wantStress {
		t.Errorf("stress canonical = %s\nwant %s", got, wantStress)
	}
	if got := Hash(stress, true); got != "7c2bb2af8a40a994187460caf11bea71be358952f771f1f0e678ca4345396873" {
		t.Errorf("stress hash = %s", got)
	}
}

func TestStringEscapes(t *testing.T) {
	v := &Value{Kind: String, Str: "a\"b\\c/\x01\x7f\u2028<>&é"}
	want := "\"a\\\"b\\\\c/\\u0001\x7f\u2028<>&é\""
	if got := string(Canonical(v, false)); got != want {
		t.Errorf("got %s want %s", got, want)
	}
}

// Zero written any way is zero, not an underflow; the smallest subnormal
// is a double.
func TestParseTinyNumbers(t *testing.T) {
	for in, want := range map[string]float64{`0e-400`: 0, `-0.0e-999`: 0, `0.000`: 0, `5e-324`: 5e-324} {
		v, err := Parse([]byte(in))
		if err != nil || v.Num != want {
			t.Errorf("Parse(%s) = %v, %v; want %v", in, v, err, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":1,}`, "1:8:"},
		{"{\n  \"a\": tru\n}", "2:8:"},
		{"{\r  \"a\": tru\r}", "2:8:"},     // a lone CR ends a line (package lineend)
		{"{\r\n\r  \"a\": tru\n}", "3:8:"}, // CRLF counts once
		{`[1 2]`, "1:4:"},
		{`{"a":"\ud800"}`, "lone UTF-16 surrogate"},
		{`{"a":"\udc00\ud800"}`, "lone UTF-16 surrogate"},
		{`1e999`, "out of the range"},
		{`1e-400`, "number 1e-400 is out of the range of a double"},
		{`[-0.000001e-400]`, "1:2: number -0.000001e-400 is out of the range"},
		{`01`, "after the JSON value"},
		{`"abc`, "unterminated string"},
		{"\"a\tb\"", "control character"},
		{``, "end of input"},
		{strings.Repeat("[", 600), "nesting deeper"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error = %v, want containing %q", c.in, err, c.want)
		}
	}
}

func TestParseKeepsDuplicatesAndPairs(t *testing.T) {
	v := mustParse(t, `{"a":1,"a":2,"s":"\ud83d\ude00"}`)
	if len(v.Members) != 3 || v.Get("a").Num != 1 {
		t.Fatalf("members = %+v", v.Members)
	}
	if v.Get("s").Str != "😀" {
		t.Errorf("surrogate pair decoded to %q", v.Get("s").Str)
	}
}

func TestCompareUTF16(t *testing.T) {
	if CompareUTF16("😀", "\uFFFD") >= 0 {
		t.Error("U+1F600 must sort before U+FFFD in UTF-16 order")
	}
	if CompareUTF16("a", "b") >= 0 || CompareUTF16("b", "a") <= 0 || CompareUTF16("x", "x") != 0 {
		t.Error("ASCII order broken")
	}
}

func TestEchoKeepsOrder(t *testing.T) {
	v := mustParse(t, `{"z":1,"a":[true,null,"x"],"_m":0.5}`)
	b, _ := v.MarshalJSON()
	if string(b) != `{"z":1,"a":[true,null,"x"],"_m":0.5}` {
		t.Errorf("echo = %s", b)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,-3e-7]}`, `"\u00e9\ud83d\ude00"`, `[{"_x":null}]`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		// The canonical text must itself parse and be a fixed point.
		c := Canonical(v, false)
		w, err := Parse(c)
		if err != nil {
			t.Fatalf("canonical text %q does not parse: %v", c, err)
		}
		if c2 := Canonical(w, false); string(c2) != string(c) {
			t.Fatalf("canonical not a fixed point: %q vs %q", c, c2)
		}
	})
}

// Integers built by the engines are written exactly at any size; within
// ±(2^53−1) they are plain doubles, as the hash spec formats them.
func TestExactIntegers(t *testing.T) {
	huge, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	obj := &Value{Kind: Object, Members: []Member{
		{Key: "a", Value: Int64(9007199254740991)},
		{Key: "b", Value: Int64(9007199254740993)},
		{Key: "c", Value: Integer(huge)},
		{Key: "d", Value: FromGo(int64(-9223372036854775808))},
	}}
	want := `{"a":9007199254740991,"b":9007199254740993,"c":-123456789012345678901234567890,"d":-9223372036854775808}`
	if got := string(Canonical(obj, false)); got != want {
		t.Errorf("Canonical = %s, want %s", got, want)
	}
	if got, _ := obj.MarshalJSON(); string(got) != want {
		t.Errorf("MarshalJSON = %s, want %s", got, want)
	}
	if obj.Get("a").Int != nil {
		t.Error("an integer within ±(2^53−1) carries a big value")
	}
	if b, ok := obj.Get("c").ToGo().(*big.Int); !ok || b.Cmp(huge) != 0 {
		t.Errorf("ToGo = %v", obj.Get("c").ToGo())
	}
}
