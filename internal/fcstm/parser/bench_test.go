package parser

import (
	"fmt"
	"strings"
	"testing"
)

// importBlock is a model whose import block has n mappings.
func importBlock(n int) string {
	var b strings.Builder
	b.WriteString("state R {\n    import \"u.fcstm\" as U {\n")
	for i := range n {
		fmt.Fprintf(&b, "        def a%d_* -> b%d_$1;\n", i, i)
	}
	b.WriteString("    }\n}\n")
	return b.String()
}

// BenchmarkParseImports parses an import block of 20,000 mappings: the
// parser restarts its scanner after each hand-lexed selector and target.
func BenchmarkParseImports(b *testing.B) {
	src := importBlock(20000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("m.fcstm", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestImportRestartPositions: after the scanner restarts past hand-lexed
// selectors and targets, positions stay exact (lines and rune columns).
func TestImportRestartPositions(t *testing.T) {
	src := importBlock(50) + "\n"
	src = strings.Replace(src, "    }\n}\n", "    }\n    é; state\n}\n", 1)
	_, err := Parse("m.fcstm", src)
	if err == nil || !strings.Contains(err.Error(), "m.fcstm:54:5:") {
		t.Fatalf("got %v, want an error at 54:5", err)
	}
	src = importBlock(3) + "state"
	src = strings.Replace(src, "def a1_* -> b1_$1;", "def a1_* -> b1_$1; event X -> Y; def é", 1)
	_, err = Parse("m.fcstm", src)
	if err == nil || !strings.Contains(err.Error(), "m.fcstm:4:46:") {
		t.Fatalf("got %v, want an error at 4:46", err)
	}
	// A rune of two bytes before restarts on the same line: é is one column.
	src = importBlock(3) + "state"
	src = strings.Replace(src, "def a1_* -> b1_$1;", `event X -> Y named "é"; def a_* -> b_$1; def c -> d; ;;é`, 1)
	_, err = Parse("m.fcstm", src)
	if err == nil || !strings.Contains(err.Error(), "m.fcstm:4:64:") {
		t.Fatalf("got %v, want an error at 4:64", err)
	}
}

// manyStates is a model of n states, each with an action and a transition.
func manyStates(n int) string {
	var b strings.Builder
	b.WriteString("def int x = 0;\nstate R {\n")
	for i := range n {
		fmt.Fprintf(&b, "    // state %d\n    state S%d { enter { x = x + %d; } }\n    S%d -> S%d : if [x > %d];\n", i, i, i, i, i, i)
	}
	b.WriteString("    [*] -> S0;\n}\n")
	return b.String()
}

// BenchmarkParseStates10k parses a model of 10,000 states (30,000 lines).
func BenchmarkParseStates10k(b *testing.B) {
	src := manyStates(10000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("m.fcstm", src); err != nil {
			b.Fatal(err)
		}
	}
}
