package ast

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/stateproof/stateproof/internal/lineend"
)

// Error is a located diagnostic with a stable code (E_SYNTAX,
// E_UNKNOWN_STATE, …). Error() is one line, "file:line:col: message
// [CODE]"; Snippet() renders the offending source line with a caret under
// the column when the source is known.
type Error struct {
	Code string
	Msg  string
	File string
	Pos  Pos
	Src  string // the whole source of File, when known; used by Snippet
}

func (e *Error) Error() string {
	loc := e.File
	if e.Pos.IsValid() {
		if loc != "" {
			loc += ":"
		}
		loc += e.Pos.String()
	}
	if loc != "" {
		loc += ": "
	}
	return fmt.Sprintf("%s%s [%s]", loc, e.Msg, e.Code)
}

// Snippet returns the source line of the error and a caret line under its
// column, or "" when the source or the position is unknown.
func (e *Error) Snippet() string {
	if !e.Pos.IsValid() {
		return ""
	}
	return Snippet(e.Src, e.Pos.Offset)
}

// snippetWidth is the most of a line Snippet shows: a generated model can
// hold a line of megabytes, and an error quoting it whole buries its own
// message (the caret's neighbourhood is what locates the error).
const snippetWidth = 120

// Snippet returns the line of src holding byte offset off and a caret line
// under off, or "" when off is outside src. A line longer than
// snippetWidth characters is cut to that many around the caret, with "…"
// where it was cut. Tabs are kept in the caret line so that the caret
// lines up in a terminal.
func Snippet(src string, off int) string {
	if src == "" || off < 0 || off > len(src) {
		return ""
	}
	start, end := lineend.LineStart(src, off), lineend.LineEnd(src, off)
	before, after := []rune(src[start:off]), []rune(src[off:end])
	var head, tail string
	if len(before)+len(after) > snippetWidth {
		if keep := snippetWidth / 2; len(before) > keep {
			before, head = before[len(before)-keep:], "…"
		}
		if keep := snippetWidth - len(before); len(after) > keep {
			after, tail = after[:keep], "…"
		}
	}
	var pad strings.Builder
	if head != "" {
		pad.WriteByte(' ')
	}
	for _, r := range before {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	return head + string(before) + string(after) + tail + "\n" + pad.String() + "^"
}

// Detail is Error() followed by the snippet, for terminal output.
func (e *Error) Detail() string {
	if s := e.Snippet(); s != "" {
		return e.Error() + "\n" + indent(s)
	}
	return e.Error()
}

// Details is the text of a load failure for a person to read: every error
// of an ErrorList, or the one *Error, with its Detail (location, source
// line and caret); any other error's own text. The command line and the
// MCP server print load failures with it, so they read the same.
func Details(err error) string {
	var list ErrorList
	var one *Error
	switch {
	case errors.As(err, &list):
		parts := make([]string, len(list))
		for i, x := range list {
			parts[i] = x.Detail()
		}
		return strings.Join(parts, "\n")
	case errors.As(err, &one):
		return one.Detail()
	}
	return err.Error()
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }

// ErrorList is a list of errors, sorted by file and position. As an error
// it reads as its first entry plus a count.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0].Error(), len(l)-1)
}

// Sort orders the list by file, line and column (stable for equal ones).
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Pos.Col < b.Pos.Col
	})
}

// Errors returns the located errors err carries: the list of a load that
// failed, a single located error as a list of one, and any other error
// as one E_LOAD error in file without a position (reading a file can
// fail before anything is located).
func Errors(err error, file string) ErrorList {
	var list ErrorList
	var one *Error
	switch {
	case errors.As(err, &list):
		return list
	case errors.As(err, &one):
		return ErrorList{one}
	}
	return ErrorList{{Code: "E_LOAD", Msg: err.Error(), File: file}}
}

// Err returns nil for an empty list and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
