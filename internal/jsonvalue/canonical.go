package jsonvalue

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Canonical returns the canonical serialisation of v: object keys sorted by
// UTF-16 code units, no white space, strings escaped as JSON.stringify does,
// numbers in ECMAScript Number::toString form. With stripMetadata, every
// member whose key starts with "_" is left out, at every depth. For an object
// holding a key twice, every occurrence is written (such input is refused by
// the model validator before anything is hashed).
func Canonical(v *Value, stripMetadata bool) []byte {
	var b []byte
	return appendCanonical(b, v, stripMetadata)
}

// Hash is the lowercase hex SHA-256 of Canonical(v, stripMetadata).
func Hash(v *Value, stripMetadata bool) string {
	sum := sha256.Sum256(Canonical(v, stripMetadata))
	return hex.EncodeToString(sum[:])
}

func appendCanonical(b []byte, v *Value, strip bool) []byte {
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		return strconv.AppendBool(b, v.Bool)
	case Number:
		if v.Int != nil {
			return v.Int.Append(b, 10)
		}
		return append(b, FormatNumber(v.Num)...)
	case String:
		return AppendString(b, v.Str)
	case Array:
		b = append(b, '[')
		for i, e := range v.Elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, e, strip)
		}
		return append(b, ']')
	case Object:
		members := make([]Member, 0, len(v.Members))
		for _, m := range v.Members {
			if !(strip && IsMetadataKey(m.Key)) {
				members = append(members, m)
			}
		}
		slices.SortStableFunc(members, func(x, y Member) int { return CompareUTF16(x.Key, y.Key) })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, m.Key)
			b = append(b, ':')
			b = appendCanonical(b, m.Value, strip)
		}
		return append(b, '}')
	}
	return b
}

// CompareUTF16 orders strings by their UTF-16 code units, as JavaScript's
// default sort does. It differs from Go's byte order only for characters
// above U+FFFF compared with characters in U+E000..U+FFFF.
func CompareUTF16(a, b string) int {
	if isBMPOnly(a) && isBMPOnly(b) {
		// Without supplementary characters, UTF-8 byte order equals code
		// point order equals UTF-16 order.
		return strings.Compare(a, b)
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func isBMPOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xF0 {
			return false
		}
	}
	return true
}

func sortUTF16(keys []string) { slices.SortFunc(keys, CompareUTF16) }

// SortUTF16 sorts strings in place by UTF-16 code units.
func SortUTF16(keys []string) { sortUTF16(keys) }

// AppendString appends s as a JSON string literal escaped the way ECMAScript
// JSON.stringify escapes it: only '"', '\\' and control characters below
// U+0020 are escaped (with lowercase hex); everything else, '/', U+007F,
// U+2028 and U+2029 included, is written literally.
func AppendString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

// FormatNumber formats a finite double as ECMAScript Number::toString does.
// NaN and infinities cannot come from JSON; they are written as JavaScript
// writes them, for completeness.
func FormatNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0:
		return "0"
	case x < 0:
		return "-" + FormatNumber(-x)
	}
	// Shortest round-tripping digits d1.d2...dk e E, so x = 0.d1...dk × 10^n with n = E+1.
	e := strconv.FormatFloat(x, 'e', -1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	s := digits[:1]
	if k > 1 {
		s += "." + digits[1:]
	}
	if n-1 >= 0 {
		return s + "e+" + strconv.Itoa(n-1)
	}
	return s + "e-" + strconv.Itoa(1-n)
}

// MarshalJSON writes v with object members in input order (an echo, not a
// canonical form), using the same string and number formatting as the
// canonical writer.
func (v *Value) MarshalJSON() ([]byte, error) {
	return v.appendEcho(nil), nil
}

func (v *Value) appendEcho(b []byte) []byte {
	switch v.Kind {
	case Array:
		b = append(b, '[')
		for i, e := range v.Elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendEcho(b)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i, m := range v.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, m.Key)
			b = append(b, ':')
			b = m.Value.appendEcho(b)
		}
		return append(b, '}')
	}
	return appendCanonical(b, v, false)
}
