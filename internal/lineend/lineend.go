// Package lineend is the one definition of a line end in the project's
// source languages (FCSTM, .rsc, FBMCQ, LTL), in JSON positions and in the
// language server: "\n", "\r\n" and a lone "\r" each end a line, as the
// Language Server Protocol and pyfcstm's grammar read them. Every scanner
// that ends a line comment or counts lines uses these functions, so that
// no tool reads code after a lone carriage return as part of a comment
// that an editor shows ended (docs/fcstm.md, "Lexical rules").
package lineend

import "strings"

// chars are the bytes that end a line, alone or as the pair "\r\n".
const chars = "\r\n"

// Len returns the length of the line end that starts at s[i]: 2 for
// "\r\n", 1 for a lone "\r" or a "\n", 0 when s[i] ends no line or i is
// outside s.
func Len(s string, i int) int {
	if i < 0 || i >= len(s) {
		return 0
	}
	switch s[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	}
	return 0
}

// Is reports whether the byte c can end a line.
func Is(c byte) bool { return c == '\n' || c == '\r' }

// Index returns the offset of the first line end in s, or -1.
func Index(s string) int { return strings.IndexAny(s, chars) }

// Count returns the number of line ends in s, a "\r\n" counting once.
func Count(s string) int {
	return strings.Count(s, "\n") + strings.Count(s, "\r") - strings.Count(s, "\r\n")
}

// LineStart returns the offset of the first byte of the line that holds
// offset off of s: just past the last line end before off. An offset
// outside s is clamped.
func LineStart(s string, off int) int {
	off = max(0, min(off, len(s)))
	return strings.LastIndexAny(s[:off], chars) + 1
}

// LineEnd returns the offset of the line end that closes the line holding
// offset off of s, or len(s) when that line is the last.
func LineEnd(s string, off int) int {
	off = max(0, min(off, len(s)))
	if i := Index(s[off:]); i >= 0 {
		return off + i
	}
	return len(s)
}

// Next returns the offset of the first byte of the line after the one
// holding offset off, or len(s) when that line is the last.
func Next(s string, off int) int {
	end := LineEnd(s, off)
	return end + Len(s, end)
}

// Starts returns the offset of the first byte of every line of s, in
// order: 0, then the offset just past each line end.
func Starts(s string) []int {
	starts := make([]int, 1, Count(s)+1)
	for i := 0; i < len(s); {
		if n := Len(s, i); n > 0 {
			i += n
			starts = append(starts, i)
		} else {
			i++
		}
	}
	return starts
}

// Rewrite returns s with each of its line ends ("\n", "\r\n" or a lone
// "\r") written as eol.
func Rewrite(s, eol string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if n := Len(s, i); n > 0 {
			b.WriteString(eol)
			i += n
		} else {
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}
