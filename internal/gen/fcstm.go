package gen

import (
	"fmt"
	"strings"
)

// CounterFCSTM is Counter in FCSTM: Run steps c from 0 to n on empty
// cycles (guard-only transitions), then goes to Done: n+2 reachable
// runtime states, as the JSON family, so the two languages' searches can
// be compared on one space.
func CounterFCSTM(n int) string {
	return fmt.Sprintf(`// stateproof gen counter %[1]d --format fcstm
def int c = 0;
state Counter {
    state Run;
    state Done;
    [*] -> Run;
    Run -> Run : if [c < %[1]d] effect { c = c + 1; };
    Run -> Done : if [c >= %[1]d];
}
`, n)
}

// TogglesFCSTM is Toggles in FCSTM: k switches (integers 0 and 1) in one
// state, switch i flipped by the event FlipI: 2^k reachable runtime
// states. One transition runs per cycle, so a cycle with several events
// flips the first of them.
func TogglesFCSTM(k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// stateproof gen toggles %d --format fcstm\n", k)
	for i := range k {
		fmt.Fprintf(&b, "def int b%d = 0;\n", i)
	}
	b.WriteString("state Toggles {\n    state On;\n    [*] -> On;\n")
	for i := range k {
		fmt.Fprintf(&b, "    On -> On :: Flip%d effect { b%d = 1 - b%d; };\n", i, i, i)
	}
	b.WriteString("}\n")
	return b.String()
}
