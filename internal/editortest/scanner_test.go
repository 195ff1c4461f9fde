package editortest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/query"
)

// reserved reports whether a word is reserved in the language of ext:
// the grammar must scope it as a word of the language, never as a name.
func reserved(ext, word string) bool {
	switch ext {
	case ".fcstm":
		return parser.IsReserved(word)
	case ".fbmcq":
		return query.IsKeyword(word) || expr.IsReserved(word)
	}
	return word == "rsc" || expr.IsReserved(word)
}

// languageWord is a scope the grammar gives the words of the language.
func languageWord(k token) bool {
	for _, p := range []string{"keyword.", "storage.", "support.", "constant.language.", "variable.language.", "variable.parameter.filter."} {
		if hasScope(k, p) {
			return true
		}
	}
	return false
}

// lineIndex finds the grammar's token at a line and UTF-16 column.
type lineIndex map[int][]token

func indexTokens(tokens []token) lineIndex {
	ix := lineIndex{}
	for _, k := range tokens {
		ix[k.Line] = append(ix[k.Line], k)
	}
	for _, l := range ix {
		sort.Slice(l, func(i, j int) bool { return l[i].Col < l[j].Col })
	}
	return ix
}

// at returns the token covering column col (1-based, UTF-16) of line.
func (ix lineIndex) at(line, col int) (token, bool) {
	for _, k := range ix[line] {
		if col >= k.Col && col < k.Col+len(utf16.Encode([]rune(k.Text))) {
			return k, true
		}
	}
	return token{}, false
}

// utf16Col converts the scanner's position to VS Code's column.
func utf16Col(src string, p expr.Pos) int {
	lineStart := strings.LastIndexByte(src[:p.Offset], '\n') + 1
	prefix := src[lineStart:p.Offset]
	if !utf8.ValidString(prefix) {
		return -1
	}
	return 1 + len(utf16.Encode([]rune(prefix)))
}

// TestGrammarAgreesWithScanner scans every accepted file with the
// project's scanner and checks, token by token, that the grammar gives the
// token the class the scanner does: numbers numeric, strings strings,
// documentation blocks comments, reserved words words of the language and
// other names never keywords. (Import mappings are lexed by hand, not by
// the scanner: their insides are left to TestGrammarScopes.)
func TestGrammarAgreesWithScanner(t *testing.T) {
	var texts []textRef
	var srcs, exts []string
	for _, p := range sourceFiles(t) {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !accepted(p, raw) {
			continue
		}
		texts = append(texts, textRef{Name: p, Scope: languages[filepath.Ext(p)].scope, Text: string(raw)})
		srcs = append(srcs, string(raw))
		exts = append(exts, filepath.Ext(p))
	}
	r := tokenize(t, nil, texts)
	checked := map[expr.Kind]int{}
	for i, x := range r.Texts {
		ix := indexTokens(x.Tokens)
		mode := expr.Mode(0)
		if exts[i] == ".fcstm" {
			mode = expr.ScanDocs
		}
		s := expr.NewScanner(srcs[i], mode)
		errors := 0
		for tok := s.Scan(); tok.Kind != expr.EOF && errors < 5; tok = s.Scan() {
			col := utf16Col(srcs[i], tok.Span.Start)
			if col < 0 {
				continue
			}
			k, ok := ix.at(tok.Span.Start.Line, col)
			if !ok {
				t.Errorf("%s:%d:%d: no grammar token at the scanner's %s %q", x.Name, tok.Span.Start.Line, col, tok.Kind, tok.Text)
				errors++
				continue
			}
			if hasScope(k, "meta.block.import") {
				continue
			}
			var want string
			switch tok.Kind {
			case expr.INT, expr.FLOAT:
				if !hasScope(k, "constant.numeric") || k.Text != tok.Text {
					want = "the number " + tok.Text
				}
			case expr.STRING:
				if !hasScope(k, "string.quoted") {
					want = "a string"
				}
			case expr.DOC:
				if !hasScope(k, "comment.block") {
					want = "a comment block"
				}
			case expr.IDENT:
				switch {
				case k.Text != tok.Text && !hasScope(k, "comment") && !hasScope(k, "string"):
					want = "the word " + tok.Text
				case reserved(exts[i], tok.Text) && !languageWord(k):
					want = "a keyword, type, constant or built-in"
				case !reserved(exts[i], tok.Text) && (hasScope(k, "keyword.") || hasScope(k, "storage.")):
					want = "a name, not a keyword"
				}
			case expr.ILLEGAL:
				want = "nothing: the scanner refuses " + tok.Text
			}
			if want != "" {
				t.Errorf("%s:%d:%d: the grammar's %s, want %s", x.Name, tok.Span.Start.Line, col, k, want)
				errors++
			}
			checked[tok.Kind]++
		}
	}
	for _, k := range []expr.Kind{expr.IDENT, expr.INT, expr.STRING, expr.DOC} {
		if checked[k] == 0 {
			t.Errorf("no %s token checked", k)
		}
	}
	t.Logf("checked %d scanner tokens of %d files: %d names, %d integers, %d floats, %d strings, %d doc blocks",
		sum(checked), len(texts), checked[expr.IDENT], checked[expr.INT], checked[expr.FLOAT], checked[expr.STRING], checked[expr.DOC])
}

func sum(m map[expr.Kind]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
