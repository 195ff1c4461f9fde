package lsp

import (
	"fmt"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/lineend"
)

// text is a document's content with its line starts, so that positions
// convert both ways without rescanning the document: the protocol counts
// characters in UTF-16 code units, the project's parsers in runes (1-based
// line and column) and bytes.
type text struct {
	src   string
	lines []int // byte offset of each line's first byte
}

func newText(src string) *text {
	return &text{src: src, lines: lineend.Starts(src)}
}

// lineBounds returns the byte range of line (0-based) without its line
// break; a line past the end is the empty end of the text. Lines end at
// "\n", "\r\n" or a lone "\r", as the protocol says.
func (t *text) lineBounds(line int) (start, end int) {
	if line < 0 {
		return 0, 0
	}
	if line >= len(t.lines) {
		return len(t.src), len(t.src)
	}
	start = t.lines[line]
	return start, lineend.LineEnd(t.src, start)
}

// offset converts a protocol position to a byte offset, clamping a
// character past the line's end to the end (as the specification says) and
// never splitting a rune: a position inside a surrogate pair lands after
// the rune.
func (t *text) offset(p Position) int {
	start, end := t.lineBounds(p.Line)
	units := 0
	i := start
	for i < end && units < p.Character {
		r, n := utf8.DecodeRuneInString(t.src[i:end])
		units += utf16Len(r)
		i += n
	}
	return i
}

// position converts a byte offset to a protocol position.
func (t *text) position(off int) Position {
	off = max(0, min(off, len(t.src)))
	line := t.lineOf(off)
	units := 0
	for i := t.lines[line]; i < off; {
		r, n := utf8.DecodeRuneInString(t.src[i:off])
		units += utf16Len(r)
		i += n
	}
	return Position{Line: line, Character: units}
}

// lineOf is the 0-based line holding byte offset off (binary search).
func (t *text) lineOf(off int) int {
	lo, hi := 0, len(t.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// runeOffset converts the project's 1-based line and rune column to a
// byte offset (clamped to the line).
func (t *text) runeOffset(line, col int) int {
	start, end := t.lineBounds(line - 1)
	i := start
	for c := 1; c < col && i < end; c++ {
		_, n := utf8.DecodeRuneInString(t.src[i:end])
		i += n
	}
	return i
}

// at converts a 1-based line and rune column to a protocol position.
func (t *text) at(line, col int) Position {
	if line < 1 {
		return Position{}
	}
	return t.position(t.runeOffset(line, col))
}

// wordRange is the range of the name (letters, digits, _) starting at
// 1-based line and rune column, or a one-character range when no name
// starts there, so that a diagnostic is always visible.
func (t *text) wordRange(line, col int) Range {
	off := t.runeOffset(max(line, 1), max(col, 1))
	end := off
	for end < len(t.src) && isNameByte(t.src[end]) {
		end++
	}
	if end == off {
		_, lineEnd := t.lineBounds(t.lineOf(off))
		if off < lineEnd {
			_, n := utf8.DecodeRuneInString(t.src[off:])
			end = off + n
		}
	}
	return Range{Start: t.position(off), End: t.position(end)}
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// apply applies one content change: a whole-document replacement when it
// has no range, otherwise an edit of the range.
func (t *text) apply(c contentChange) (*text, error) {
	if c.Range == nil {
		return newText(c.Text), nil
	}
	r := *c.Range
	if r.Start.Line < 0 || r.Start.Character < 0 || r.End.Line < r.Start.Line ||
		r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
		return nil, fmt.Errorf("invalid change range %d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
	}
	start, end := t.offset(r.Start), t.offset(r.End)
	if end < start {
		end = start
	}
	return newText(t.src[:start] + c.Text + t.src[end:]), nil
}
