package inspect

import (
	"reflect"
	"strings"
	"testing"
)

// TestLineEnds: "\r\n" and a lone "\r" end lines as "\n" does (the
// parser's reading), so spans and suppression comments are the same
// whatever the line ends: a line comment ends at a lone "\r".
func TestLineEnds(t *testing.T) {
	src := "def int spare = 0; // stateproof:ignore W_UNREFERENCED_VAR kept\nstate H { // root\n    state A;\n    state Dead;\n    [*] -> A;\n    A -> A :: Go effect { spare = spare; }\n}\n"
	want := Source("m.fcstm", []byte(src), Options{})
	if len(want.Diagnostics) == 0 || want.Suppressed != 1 {
		t.Fatalf("with \\n: %+v, %d suppressed", want.Diagnostics, want.Suppressed)
	}
	for _, end := range []string{"\r\n", "\r"} {
		got := Source("m.fcstm", []byte(strings.ReplaceAll(src, "\n", end)), Options{})
		if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || got.Suppressed != want.Suppressed {
			t.Errorf("with %q:\n%+v\nwant\n%+v", end, got.Diagnostics, want.Diagnostics)
		}
	}
}
