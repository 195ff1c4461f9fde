package fcstmtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// PseudoChain is an FCSTM model whose cycle from M.A on Go passes n pseudo
// states, each with a guarded and a default branch to the next: 2^n paths
// from M.A to M.B. With rng nil the branches are fixed (the guarded one
// adds to y, the default one to x); otherwise each guard, effect and
// operand is drawn from rng: a pseudo state may have an enter action, its
// second branch may be guarded too (a run may then find no way on: the
// choices before it are not shared), and with short chains it may leave
// for B directly (a choice that cannot be shared).
func PseudoChain(n int, rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("def int x = 0;\ndef int y = 0;\nstate M {\n    state A;\n    state B;\n")
	for i := range n {
		if rng != nil && rng.IntN(4) == 0 {
			// An action of the pseudo state itself: effects inside a
			// shared branch.
			fmt.Fprintf(&b, "    pseudo state P%d { enter { y = y - x; } }\n", i)
			continue
		}
		fmt.Fprintf(&b, "    pseudo state P%d;\n", i)
	}
	b.WriteString("    [*] -> A;\n    A -> P0 :: Go;\n    B -> A :: Back;\n")
	for i := range n {
		next := "B"
		if i+1 < n {
			next = fmt.Sprintf("P%d", i+1)
		}
		if rng == nil {
			fmt.Fprintf(&b, "    P%d -> %s : if [x > %d] effect { y = y + %d; };\n    P%d -> %s effect { x = x + 1; };\n", i, next, i, i+1, i, next)
			continue
		}
		vars := []string{"x", "y"}
		v, w := vars[rng.IntN(2)], vars[rng.IntN(2)]
		fmt.Fprintf(&b, "    P%d -> %s : if [%s > %d] effect { %s = %s + %d; };\n", i, next, v, rng.IntN(5)-2, w, w, rng.IntN(3)+1)
		switch {
		case n <= 8 && rng.IntN(4) == 0:
			fmt.Fprintf(&b, "    P%d -> B;\n", i)
		case n <= 8 && rng.IntN(6) == 0:
			// Both branches guarded: some runs find no way on, so the
			// choices before cannot be shared.
			fmt.Fprintf(&b, "    P%d -> %s : if [%s < %d] effect { %s = %s - 1; };\n", i, next, v, rng.IntN(5)-1, v, v)
		default:
			fmt.Fprintf(&b, "    P%d -> %s effect { %s = %s - %d; };\n", i, next, v, v, rng.IntN(2)+1)
		}
	}
	b.WriteString("}\n")
	return b.String()
}
