package lower

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// wideModel is a 40-state, 3-level model: the root holds three
// composites, each three composites of three leaves, with evented and
// guarded transitions, effects, exits through [*] and parent-level
// transitions after them.
func wideModel() string {
	var b strings.Builder
	b.WriteString("def int x = 0;\ndef int y = 0;\nstate Root {\n")
	for i := range 3 {
		fmt.Fprintf(&b, "  state G%d {\n", i)
		for j := range 3 {
			fmt.Fprintf(&b, "    state H%d {\n", j)
			for k := range 3 {
				fmt.Fprintf(&b, "      state L%d { during { x = x + %d; } }\n", k, k+1)
			}
			b.WriteString("      [*] -> L0;\n      L0 -> L1 :: Go;\n      L1 -> L2 : if [x > 3] effect { y = y + 1; }\n      L2 -> [*] :: Done;\n      L1 -> L0 :: Back effect { x = x - 1; }\n    }\n")
		}
		b.WriteString("    [*] -> H0;\n    H0 -> H1;\n    H1 -> H2 : if [y % 2 == 0];\n    H2 -> [*];\n  }\n")
	}
	b.WriteString("  [*] -> G0;\n  G0 -> G1;\n  G1 -> G2 :: Next;\n  G2 -> G0;\n}\n")
	return b.String()
}

func BenchmarkLowerWide(b *testing.B) {
	m := build(b, wideModel())
	for b.Loop() {
		if _, err := Lower(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeWide20 encodes the wide model at bound 20 (lowering
// included), in the lean shape bmc solves by default and in the tracked
// shape of --explain: the acceptance target is under 50 ms for lean.
func BenchmarkEncodeWide20(b *testing.B) {
	m := build(b, wideModel())
	ctx, err := z3.NewContext()
	if err != nil {
		b.Fatal(err)
	}
	defer ctx.Close()
	shapes := []struct {
		name string
		new  func(*z3.Context, *sts.System) (*smt.Encoding, error)
	}{
		{"lean", func(c *z3.Context, s *sts.System) (*smt.Encoding, error) { return smt.NewLeanEncoding(c, s, false) }},
		{"tracked", smt.NewEncoding},
	}
	for _, shape := range shapes {
		b.Run(shape.name, func(b *testing.B) {
			for b.Loop() {
				sys, err := Lower(m)
				if err != nil {
					b.Fatal(err)
				}
				enc, err := shape.new(ctx, sys)
				if err != nil {
					b.Fatal(err)
				}
				if err := enc.Unroll(20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
