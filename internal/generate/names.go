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
	if name == "" || token.Lookup(name).IsKeyword() || name == "main" || stdRoots[name] {
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

// stdRoots are the first elements of the standard library's import
// paths. With --driver the package is also a module of its name, and a
// module path the standard library uses makes every import of it
// ambiguous ("log.fcstm" would not build), so such a name gets the fsm
// prefix as a keyword does.
var stdRoots = map[string]bool{
	"archive": true, "arena": true, "bufio": true, "builtin": true, "bytes": true, "cmd": true, "cmp": true, "compress": true,
	"container": true, "context": true, "crypto": true, "database": true, "debug": true, "embed": true,
	"encoding": true, "errors": true, "expvar": true, "flag": true, "fmt": true, "go": true, "hash": true,
	"html": true, "image": true, "index": true, "internal": true, "io": true, "iter": true, "log": true,
	"maps": true, "math": true, "mime": true, "net": true, "os": true, "path": true, "plugin": true,
	"reflect": true, "regexp": true, "runtime": true, "simd": true, "slices": true, "sort": true, "strconv": true,
	"strings": true, "structs": true, "sync": true, "syscall": true, "testing": true, "text": true,
	"time": true, "unicode": true, "unique": true, "unsafe": true, "vendor": true, "weak": true,
}
