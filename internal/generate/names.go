package generate

import (
	"go/token"
	"strconv"
	"strings"
	"unicode"
)

// packageName derives a Go package name from a name or file name: lower
// case ASCII letters, digits and underscores, starting with a letter, not
// a keyword and not "main".
func packageName(s string) string {
	if i := strings.LastIndexByte(s, '.'); i > 0 {
		s = s[:i]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		case r == '_' || r == '-' || r == ' ' || r == '.':
			if b.Len() > 0 {
				b.WriteByte('_')
			}
		}
	}
	name := strings.Trim(b.String(), "_")
	if name == "" || token.Lookup(name).IsKeyword() || name == "main" {
		name = "fsm" + name
	}
	return name
}

// idents hands out exported Go identifiers derived from model names:
// sanitised to ASCII letters, digits and underscores, and unique.
type idents map[string]bool

// make returns a fresh identifier prefix + the sanitised dotted path.
func (ids idents) make(prefix, dotted string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i, seg := range strings.Split(dotted, ".") {
		if i > 0 {
			b.WriteByte('_')
		}
		up := true
		for _, r := range seg {
			switch {
			case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
				if up {
					r = unicode.ToUpper(r)
					up = false
				}
				b.WriteRune(r)
			default:
				b.WriteByte('_')
			}
		}
	}
	id := b.String()
	for n := 2; ids[id]; n++ {
		id = b.String() + "_" + strconv.Itoa(n)
	}
	ids[id] = true
	return id
}
