package format

import (
	"fmt"
	"strings"
	"testing"
)

// bigModel is an FCSTM model of about n lines, with an import block of n/10
// mappings (the hand-lexed part) and comments.
func bigModel(n int) string {
	var b strings.Builder
	b.WriteString("def int x = 0; // counter\nstate R {\n    import \"u.fcstm\" as U {\n")
	for i := range n / 10 {
		fmt.Fprintf(&b, "        def a%d_* -> b%d_$1;\n", i, i)
	}
	b.WriteString("    }\n")
	for i := range n / 3 {
		fmt.Fprintf(&b, "    // state %d\n    state S%d { enter { x = x + %d; } }\n    S%d -> S%d : if [x > %d];\n", i, i, i, i, i, i)
	}
	b.WriteString("    [*] -> S0;\n}\n")
	return b.String()
}

// BenchmarkSource2000 formats a 2,000-line model (the size of the
// language server's budget).
func BenchmarkSource2000(b *testing.B) {
	src := []byte(bigModel(2000))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Source("big.fcstm", src); err != nil {
			b.Fatal(err)
		}
	}
}
