package inspect

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/inspect/codes"
)

// ignoreMarker starts a suppression comment:
// `// stateproof:ignore CODE[,CODE…] reason`.
const ignoreMarker = "stateproof:ignore"

// ParseIgnore parses a comma-separated list of codes (the --ignore flag).
// Every entry must look like a code (IsCodeName); a code stateproof does not emit yet is accepted, so that
// a filter written for pyfcstm keeps working.
func ParseIgnore(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var out []string
	for i, f := range strings.Split(list, ",") {
		c := strings.TrimSpace(f)
		if !IsCodeName(c) {
			return nil, fmt.Errorf("entry %d %q is not a diagnostic code (codes look like W_UNUSED_EVENT; see docs/inspect.md)", i+1, c)
		}
		out = append(out, c)
	}
	return out, nil
}

// IsCodeName reports whether s has the shape of a diagnostic code: E_, W_
// or I_ (pyfcstm's) or FCSTM_ (verify's lints, whose names match the
// inspect code of the same problem), then capitals, digits, underscores.
func IsCodeName(s string) bool {
	rest, ok := strings.CutPrefix(s, "FCSTM_")
	if !ok {
		if len(s) < 2 || s[1] != '_' || s[0] != 'E' && s[0] != 'W' && s[0] != 'I' {
			return false
		}
		rest = s[2:]
	}
	if rest == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// ignoreComment is one suppression comment: its line and codes.
type ignoreComment struct {
	line  int
	codes []string
}

// ignoreComments finds the suppression comments of the source (in // and
// # comments, never inside a string).
func (s *source) ignoreComments() []ignoreComment {
	var out []ignoreComment
	sc := expr.NewScanner(s.text, expr.ScanComments)
	for tok := sc.Scan(); tok.Kind != expr.EOF; tok = sc.Scan() {
		if tok.Kind != expr.COMMENT || strings.HasPrefix(tok.Text, "/*") {
			continue
		}
		if codes := ParseIgnoreComment(tok.Text); len(codes) > 0 {
			out = append(out, ignoreComment{line: tok.Span.Start.Line, codes: codes})
		}
	}
	return out
}

// ParseIgnoreComment returns the codes a line comment suppresses: the
// comma-separated codes after "stateproof:ignore" (the rest of the
// comment is the reason). A comment without the marker, or whose code
// list is malformed, suppresses nothing.
func ParseIgnoreComment(comment string) []string {
	c := strings.TrimLeft(comment, "/# \t")
	if !strings.HasPrefix(c, ignoreMarker) {
		return nil
	}
	rest := strings.TrimPrefix(c, ignoreMarker)
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return nil
	}
	codes, err := ParseIgnore(fields[0])
	if err != nil {
		return nil
	}
	return codes
}

// commentCovers reports whether a suppression comment covers d: one on
// d's first line, or one on the declaration line of a state whose
// declaration contains d.
func (a *analysis) commentCovers(comments []ignoreComment, d Diagnostic) bool {
	for _, c := range comments {
		if !contains(c.codes, d.Code) {
			continue
		}
		if end, ok := a.extents[c.line]; c.line == d.Span.Line || ok && c.line <= d.Span.Line && d.Span.Line <= end {
			return true
		}
	}
	return false
}

// stateExtents maps the declaration line of every root-file state to
// the last line of its declaration (the longest, when several states
// start on one line).
func (a *analysis) stateExtents() map[int]int {
	ext := map[int]int{}
	if a.tree == nil || a.tree.Root == nil {
		return ext
	}
	declStates(a.tree.Root, "", func(_ string, d *ast.StateDecl) {
		sp := a.src.statement(model.Pos{File: a.file, Line: d.Pos.Line, Col: d.Pos.Col})
		ext[d.Pos.Line] = max(ext[d.Pos.Line], sp.EndLine)
	})
	return ext
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if codes.Canonical(x) == s {
			return true
		}
	}
	return false
}
