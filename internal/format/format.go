package format

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/query"
)

// language is what the layout needs to know of one file type.
type language struct {
	name  string
	mode  expr.Mode
	parse func(l *language, filename, src string) error
	// keyword: a grammar word (an IDENT that is not an operand).
	keyword func(string) bool
	// callee: an IDENT that may be followed directly by a call's "(".
	callee func(string) bool
	// blocks: braces open blocks laid out over lines (FCSTM); otherwise
	// every pair of braces is an inline set (FBMCQ's havoc { a, b }).
	blocks bool
	// spacedSets: "{ a, b }" rather than "{a, b}".
	spacedSets bool
	// tightColon: a clause's ":" follows the word before it directly
	// ("assume at 2: x"); a conditional's ":" is spaced anyway.
	tightColon bool
}

// fbmcqAtoms are the query keywords that are called like functions.
var fbmcqAtoms = map[string]bool{
	"var": true, "active": true, "terminated": true, "event": true, "case": true,
	"called": true, "call_count": true, "state": true,
}

// languages are the formats by name; never written.
var languages = map[string]*language{
	"fcstm": {
		name: "fcstm", mode: expr.ScanDocs,
		parse: func(_ *language, filename, src string) error {
			_, err := parser.Parse(filename, src)
			return err
		},
		keyword: parser.IsKeyword,
		callee:  func(w string) bool { return !parser.IsKeyword(w) && !expr.IsWordOperator(w) },
		blocks:  true,
	},
	"fbmcq": {
		name: "fbmcq",
		parse: func(_ *language, filename, src string) error {
			_, err := query.Parse(filename, src)
			return err
		},
		keyword: func(w string) bool { return query.IsKeyword(w) && w != "cycle" },
		callee: func(w string) bool {
			return fbmcqAtoms[w] || !query.IsKeyword(w) && !expr.IsWordOperator(w)
		},
		spacedSets: true,
		tightColon: true,
	},
	"rsc": {
		name: "rsc",
		parse: func(l *language, filename, src string) error {
			if _, err := lexRSC(l, src); err != nil {
				return fmt.Errorf("%s:%w", filename, err)
			}
			return nil
		},
		keyword:    func(w string) bool { return w == "rsc" },
		callee:     func(w string) bool { return !expr.IsWordOperator(w) },
		tightColon: true,
	},
}

// operand reports whether e ends an operand, so that a following "-", "+"
// or "/" is a binary operator rather than a sign or an absolute path.
func (l *language) operand(e *elem) bool {
	if e.raw {
		return true
	}
	switch e.kind {
	case expr.INT, expr.FLOAT, expr.STRING, expr.RPAREN, expr.RBRACK, expr.INITIAL:
		return true
	case expr.IDENT:
		return !l.keyword(e.text) && !expr.IsWordOperator(e.text)
	}
	return false
}

// Languages lists the language names SourceAs accepts.
func Languages() []string { return []string{"fbmcq", "fcstm", "rsc"} }

// LanguageOf returns the language of a file by its extension (.fcstm,
// .fbmcq, .rsc), or "" when the formatter has none for it.
func LanguageOf(filename string) string {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".fcstm":
		return "fcstm"
	case ".fbmcq":
		return "fbmcq"
	case ".rsc":
		return "rsc"
	}
	return ""
}

// MaxSourceBytes is the largest input the formatter takes (1 GiB): the
// element indices are 32-bit. The command line and the language server
// bound their inputs far below it.
const MaxSourceBytes = 1 << 30

// Source formats one FCSTM (.fcstm), FBMCQ (.fbmcq) or RSC (.rsc) file,
// the language chosen by filename's extension. Source that does not parse is refused
// with the parser's error, located file:line:col; filename is used in
// messages only. The result always ends in one newline.
func Source(filename string, src []byte) ([]byte, error) {
	lang := LanguageOf(filename)
	if lang == "" {
		return nil, fmt.Errorf("%s: cannot format this file: the formatter knows .fcstm, .fbmcq and .rsc files (docs/fmt.md)", filename)
	}
	return SourceAs(lang, filename, src)
}

// SourceAs is Source for a language named explicitly ("fcstm", "fbmcq"
// or "rsc"), as for standard input.
func SourceAs(lang, filename string, src []byte) ([]byte, error) {
	l := languages[lang]
	if l == nil {
		return nil, fmt.Errorf("unknown language %q: want fcstm, fbmcq or rsc", lang)
	}
	if len(src) > MaxSourceBytes {
		return nil, fmt.Errorf("%s: %d bytes is more than the formatter takes (%d)", filename, len(src), MaxSourceBytes)
	}
	text := string(src)
	if err := l.parse(l, filename, text); err != nil {
		return nil, err
	}
	els, err := lex(l, text)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", filename, err)
	}
	out := layout(l, els)
	// The layout only changes white space and drops lone ";": check that
	// before handing the text back, so that a formatter bug is an error,
	// never a changed model. Only the texts are kept for the check (a
	// comment's text tells it from a token's), so that the elements of
	// the input are garbage before the output is lexed.
	want := keptTexts(els)
	els = nil
	if err := sameTokens(l, want, out); err != nil {
		return nil, fmt.Errorf("%s: internal error in the formatter (please report it with the file): %v", filename, err)
	}
	return []byte(out), nil
}

// keptTexts returns the texts of the tokens and comments of els, lone ";"
// left out.
func keptTexts(els []elem) []string {
	texts := make([]string, 0, len(els))
	for i := range els {
		if !els[i].drop {
			texts = append(texts, els[i].text)
		}
	}
	return texts
}

// sameTokens checks that out lexes to the tokens and comments want.
func sameTokens(l *language, want []string, out string) error {
	again, err := lex(l, out)
	if err != nil {
		return err
	}
	got := keptTexts(again)
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Errorf("%q became %q (token or comment %d)", expr.Clip(want[i]), expr.Clip(got[i]), i+1)
		}
	}
	if len(want) != len(got) {
		return fmt.Errorf("%d tokens and comments became %d", len(want), len(got))
	}
	return nil
}
