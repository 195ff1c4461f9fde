package prove

import (
	"fmt"
	"strings"
)

// smtName maps a user's name (a variable, an event, a clause's bound
// variable) to the part of a solver constant's name that stands for it:
// a simple SMT-LIB symbol, whatever the name holds, so that every text
// the prover generates (Spacer's clauses, certificates) reads back as it
// was meant. Letters, digits, '_' and '.' stay; every other byte,
// including '~' itself, becomes ~XX (its hex code), which keeps the map
// one-to-one and keeps the separators the encoder adds ('@', '!') out
// of the user's part; a leading digit or '.' is coded too. No spelling
// starts with '!', which marks the encoder's own constants (the
// unrolling's node counters and selectors). A symbol between bars could
// not hold '|' or '\'.
func smtName(s string) string {
	if s == "" {
		return "~" // the one case of a '~' without two hex digits after it
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9' || c == '.':
			if i == 0 { // a symbol does not start with a digit, and one starting with '.' is the solver's
				fmt.Fprintf(&b, "~%02x", c)
				continue
			}
			b.WriteByte(c)
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "~%02x", c)
		}
	}
	return b.String()
}
