package parser

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/lineend"
)

// FuzzParse: the parser never panics, and every error it returns is an
// *ast.Error located inside the input.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../model/testdata/*.fcstm")
	more, _ := filepath.Glob("../model/testdata/*/*.fcstm")
	for _, p := range append(seeds, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"state R;",
		"def int x = 1; state R { state A; [*] -> A; A -> A :: Go + [x > 0] effect { x = x + 1; } }",
		`state R { import "u.fcstm" as U { def a_* -> b_${1}; event /X -> Y; } }`,
		`state R { import "u.fcstm" as U { def * -> p_$0; def a_*_*x -> q_$2_${0}$1; def {a, b} -> k_${0}; } }`,
		`state R { import "u.fcstm" as U { event /Go -> Start; event /Stop -> Start; event /A.B -> /C; } }`,
		"state R { !* -> [*] : /Stop; >> during before abstract W; enter ref /A.B; }",
		"state R { /* doc */ enter abstract /* doc */;",
		"state R { state A { during { if [x] { } else if [y] { } else { } } } }",
	} {
		f.Add(s)
	}
	f.Add("def int x = 0; // c\rstate R { state A { during { x = 100; # d\r\n } } [*] -> A; }")
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Parse("f.fcstm", src)
		checkLineEnds(t, src, err)
		if err == nil {
			return
		}
		var e *ast.Error
		if !errors.As(err, &e) {
			t.Fatalf("error %v is not an *ast.Error", err)
		}
		if e.Code == "" || e.File != "f.fcstm" || !e.Pos.IsValid() || e.Pos.Offset > len(src) {
			t.Fatalf("badly located error %+v", e)
		}
		_ = e.Detail()
	})
}

// checkLineEnds: with every line end of src written as "\r" or "\r\n"
// instead, src parses as it does with "\n" (err is that parse's error):
// both or neither, and an error at the same line and column (docs/fcstm.md,
// "Lexical rules"; issue 38 item 8.1: a lone "\r" did not end a comment).
func checkLineEnds(t *testing.T, src string, err error) {
	base := lineend.Rewrite(src, "\n")
	if base != src {
		_, err = Parse("f.fcstm", base)
	}
	for _, eol := range []string{"\r", "\r\n"} {
		_, got := Parse("f.fcstm", lineend.Rewrite(src, eol))
		if (got == nil) != (err == nil) || got != nil && at(got) != at(err) {
			t.Fatalf("line ends %q: error %v; with \\n: %v", eol, got, err)
		}
	}
}

// at is the "line:col" of a parse error.
func at(err error) string {
	var e *ast.Error
	if errors.As(err, &e) {
		return e.Pos.String()
	}
	return err.Error()
}
