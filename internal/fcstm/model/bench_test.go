package model

import (
	"fmt"
	"strings"
	"testing"
)

// benchModel writes a model of about 300 lines: composites with leaves,
// guarded and combo transitions, actions with if blocks, a forced reset
// and refs.
func benchModel() string {
	var b strings.Builder
	b.WriteString("def int count = 0;\ndef int mode = 0;\ndef float level = 0.5;\n\nstate Plant {\n")
	b.WriteString("    enter Init { count = 0; }\n    >> during before { level = level + 0.1; }\n")
	for i := 0; i < 13; i++ {
		fmt.Fprintf(&b, "    state Unit%d {\n", i)
		b.WriteString("        enter ref /Init;\n")
		for _, leaf := range []string{"Idle", "Busy", "Done"} {
			fmt.Fprintf(&b, "        state %s {\n            during {\n", leaf)
			b.WriteString("                if [mode > 1] { count = count + 1; } else { tmp = count * 2; count = tmp; }\n")
			b.WriteString("            }\n        }\n")
		}
		b.WriteString("        [*] -> Idle;\n        Idle -> Busy :: Start + [count < 100];\n")
		b.WriteString("        Busy -> Done : if [level > 1.0] effect { mode = mode + 1; }\n        Done -> [*] :: Finish;\n    }\n")
	}
	b.WriteString("    [*] -> Unit0;\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "    Unit%d -> Unit%d : Next;\n", i, i+1)
	}
	b.WriteString("    !* -> Unit0 :: Reset;\n}\n")
	return b.String()
}

// BenchmarkParseBuild measures parse + construction of a 300-line model
// (target: under 1 ms).
func BenchmarkParseBuild(b *testing.B) {
	src := benchModel()
	if n := strings.Count(src, "\n"); n < 290 || n > 320 {
		b.Fatalf("bench model has %d lines, want about 300", n)
	}
	if _, err := Parse("bench.fcstm", src, Options{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("bench.fcstm", src, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
