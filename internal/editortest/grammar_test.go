package editortest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/query"
)

// accepted reports whether the project's own parser accepts the file: the
// grammar must then tokenise every character of it. An RSC file can only
// be read against its model (state names are resolved while parsing), so
// every RSC file in the repository counts as accepted.
func accepted(path string, src []byte) bool {
	switch filepath.Ext(path) {
	case ".fcstm":
		_, err := parser.Parse(path, string(src))
		return err == nil
	case ".fbmcq":
		_, err := query.Parse(path, string(src))
		return err == nil
	}
	return true
}

// sourceFiles lists the FCSTM, FBMCQ and RSC files of the repository and
// of the shared pyfcstm fixtures.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(repoRoot(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if _, ok := languages[filepath.Ext(p)]; ok && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return append(files, fcstmtest.SharedModels(t)...)
}

// TestGrammarsCoverEveryAcceptedFile tokenises every FCSTM, FBMCQ and RSC
// file with the extension's grammars: a file the parser accepts must get
// no "invalid" scope and no non-blank text left to the root scope alone
// (a lexeme no rule knows).
func TestGrammarsCoverEveryAcceptedFile(t *testing.T) {
	var refs []fileRef
	var strict []bool
	count := map[string]int{}
	for _, p := range sourceFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ok := accepted(p, src)
		refs = append(refs, fileRef{Path: p, Scope: languages[filepath.Ext(p)].scope})
		strict = append(strict, ok)
		if ok {
			count[filepath.Ext(p)]++
		}
	}
	// A walk that found nothing would pass vacuously.
	for ext, min := range map[string]int{".fcstm": 100, ".fbmcq": 20, ".rsc": 3} {
		if count[ext] < min {
			t.Fatalf("only %d accepted %s files found (want at least %d): is the walk broken?", count[ext], ext, min)
		}
	}
	texts := docExamples(t)
	if len(texts) < 5 {
		t.Fatalf("only %d FCSTM/FBMCQ examples found in the docs", len(texts))
	}
	r := tokenize(t, refs, texts)
	for _, x := range r.Texts {
		for _, k := range x.Tokens {
			if hasScope(k, "invalid") || len(k.Scopes) == 1 && strings.TrimSpace(k.Text) != "" {
				t.Errorf("%s: %s", x.Name, k)
			}
		}
	}
	for i, f := range r.Files {
		if f.Tokens == 0 {
			t.Errorf("%s: no tokens", f.Path)
		}
		if !strict[i] {
			continue // a file the parser refuses may hold a lexeme it refuses too
		}
		for j, p := range f.Problems {
			if j == 5 {
				t.Errorf("%s: … %d problems in all", f.Path, len(f.Problems))
				break
			}
			t.Errorf("%s:%s", f.Path, p)
		}
	}
	t.Logf("tokenised %d files (%v accepted by the parsers) and %d examples of the docs", len(refs), count, len(texts))
}

// docExamples returns the plain fenced blocks of README.md and docs/ that
// the FCSTM or the FBMCQ parser accepts, named by file and line.
func docExamples(t *testing.T) []textRef {
	t.Helper()
	root := repoRoot(t)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	fence := regexp.MustCompile("(?ms)^```\n(.*?)^```")
	var texts []textRef
	for _, f := range append(docs, filepath.Join(root, "README.md")) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fence.FindAllSubmatchIndex(raw, -1) {
			block := string(raw[m[2]:m[3]])
			name := fmt.Sprintf("%s:%d", filepath.Base(f), 1+bytes.Count(raw[:m[2]], []byte("\n")))
			if _, err := parser.Parse(name, block); err == nil {
				texts = append(texts, textRef{Name: name, Scope: "source.fcstm", Text: block})
			} else if _, err := query.Parse(name, block); err == nil {
				texts = append(texts, textRef{Name: name, Scope: "source.fbmcq", Text: block})
			}
		}
	}
	return texts
}

// probe names one token of a snippet and the scope it must carry.
type probe struct {
	text  string // the token's text, its first occurrence
	scope string // a scope of the token must start with this
}

// TestGrammarScopes checks what a token is scoped as: keywords as
// keywords, comments as comments (also when they hold a keyword), strings
// as strings (also when they hold a comment marker), and lexical errors as
// invalid.
func TestGrammarScopes(t *testing.T) {
	cases := []struct {
		name, scope, text string
		want              []probe
	}{
		{"fcstm keywords", "source.fcstm", "def int x = 0;\nstate Root {\n pseudo state P;\n event Go named \"go\";\n}",
			[]probe{{"def", "storage.type.def"}, {"int", "storage.type.primitive"}, {"x", "variable.other.definition"},
				{"state", "storage.type.state"}, {"Root", "entity.name.type.state"}, {"pseudo", "storage.modifier.pseudo"},
				{"event", "storage.type.event"}, {"Go", "entity.name.function.event"}, {"named", "keyword.other.named"}}},
		{"fcstm comments", "source.fcstm", "// state A\n# event B\n/* doc: state C */\nstate R;",
			[]probe{{" state A", "comment.line.double-slash"}, {" event B", "comment.line.number-sign"},
				{" doc: state C ", "comment.block.documentation"}}},
		{"fcstm strings", "source.fcstm", "state R named \"a // b # c\\n\" { import 'x.fcstm' as X; }",
			[]probe{{"a // b # c", "string.quoted.double"}, {"\\n", "constant.character.escape"},
				{"x.fcstm", "string.quoted.single"}, {"import", "keyword.control.import"}, {"X", "entity.name.type.state"}}},
		{"fcstm numbers", "source.fcstm", "def float a = 0x1F + 1.5e-3 + .5 + 1. + 3e2 + 12;",
			[]probe{{"0x1F", "constant.numeric.integer.hexadecimal"}, {"1.5e-3", "constant.numeric.float"},
				{".5", "constant.numeric.float"}, {"1.", "constant.numeric.float"}, {"3e2", "constant.numeric.float"},
				{"12", "constant.numeric.integer.decimal"}}},
		{"fcstm transitions", "source.fcstm", "state R {\n [*] -> A;\n A -> B : /Sys.Go + [x > 0 and not y] effect { x = sqrt(pi); }\n !* -> A :: Stop;\n B -> A : if [true];\n}",
			[]probe{{"[*]", "constant.language.initial"}, {"->", "keyword.operator.arrow"}, {"A", "entity.name.type.state"},
				{":", "keyword.operator.trigger"}, {"/", "punctuation.separator.path.absolute"}, {"Sys", "entity.name.function.event"},
				{"+", "keyword.operator.combo"}, {"[", "punctuation.section.guard.begin"}, {"and", "keyword.operator.word"},
				{"effect", "keyword.control.effect"}, {"sqrt", "support.function.math"}, {"pi", "support.constant.math"},
				{"!", "keyword.control.forced"}, {"::", "keyword.operator.trigger"}, {"Stop", "entity.name.function.event"},
				{"if", "keyword.control.if"}, {"true", "constant.language.boolean"}}},
		{"fcstm actions", "source.fcstm", "state R {\n enter abstract Init;\n >> during after Log { }\n exit ref /R.Log;\n}",
			[]probe{{"enter", "storage.type.action"}, {"abstract", "storage.modifier.abstract"}, {"Init", "entity.name.function.action"},
				{">>", "keyword.other.aspect"}, {"after", "storage.modifier"}, {"Log", "entity.name.function.action"},
				{"ref", "keyword.other.ref"}}},
		{"fcstm import mappings", "source.fcstm", "import \"u.fcstm\" as U { def sensor_* -> s_$1_${2}; def {a, b} -> *; event /Reset -> Go; }",
			[]probe{{"$1", "constant.other.placeholder"}, {"${2}", "constant.other.placeholder"}, {"*", "keyword.operator.wildcard"},
				{"Reset", "entity.name.function.event"}, {"Go", "entity.name.function.event"}}},
		{"fcstm lexical errors", "source.fcstm", "def int a = 2x;\nstate R named \"open\ndef int b = @;\nstate S named \"\\q\";",
			[]probe{{"2x", "invalid.illegal.numeric"}, {"open", "invalid.illegal.unterminated-string"},
				{"@", "invalid.illegal.character"}, {"\\q", "invalid.illegal.escape"}}},
		{"fbmcq", "source.fbmcq", "// model: m.fcstm\ninit state(\"S\") havoc { x } where x >= 0;\nassume events cardinality at_most_one { \"a\" };\ncheck reach <= 5: called(\"f\", -1..2, role=state_exit, named_ref=null) && cycle == 2; /* check */",
			[]probe{{" model: m.fcstm", "comment.line.double-slash"}, {"init", "keyword.control.clause"}, {"state", "keyword.other"},
				{"havoc", "keyword.other"}, {"cardinality", "keyword.other"}, {"check", "keyword.control.clause"},
				{"reach", "keyword.other.check-kind"}, {"called", "support.function.atom"}, {"..", "keyword.operator.range"},
				{"role", "variable.parameter.filter"}, {"null", "constant.language.null"}, {"cycle", "variable.language.cycle"},
				{" check ", "comment.block"}, {"S", "string.quoted.double"}}},
		{"rsc", "source.rsc", "// c\nrsc \"A.B\": var(\"x\") == 0 && y <= 0x10;",
			[]probe{{"rsc", "keyword.other.statement.rsc"}, {"A.B", "string.quoted.double"}, {"var", "support.function.atom"},
				{"0x10", "constant.numeric.integer.hexadecimal"}, {" c", "comment.line.double-slash"}}},
		{"rsc comments", "source.rsc", "rsc \"A\": x > 0 /* why */ # because\n && y == 1;",
			[]probe{{" why ", "comment.block"}, {" because", "comment.line.number-sign"}, {"y", "variable.other"}}},
		// Between statements the RSC reader skips only // comments.
		{"rsc lexical errors", "source.rsc", "# not here\nrsc \"A\": true;\n/* nor here */",
			[]probe{{"#", "invalid.illegal"}, {"/", "invalid.illegal"}, {"rsc", "keyword.other.statement.rsc"}}},
	}
	var texts []textRef
	for _, c := range cases {
		texts = append(texts, textRef{Name: c.name, Scope: c.scope, Text: c.text})
	}
	r := tokenize(t, nil, texts)
	for i, c := range cases {
		tokens := r.Texts[i].Tokens
		for _, p := range c.want {
			k, ok := find(tokens, p.text)
			if !ok {
				t.Errorf("%s: no token %q in %v", c.name, p.text, tokens)
				continue
			}
			if !hasScope(k, p.scope) {
				t.Errorf("%s: token %s, want a scope %s…", c.name, k, p.scope)
			}
		}
		if !strings.Contains(c.name, "errors") {
			for _, k := range tokens {
				if hasScope(k, "invalid") {
					t.Errorf("%s: unexpected %s", c.name, k)
				}
			}
		}
	}
}

func find(tokens []token, text string) (token, bool) {
	for _, k := range tokens {
		if k.Text == text {
			return k, true
		}
	}
	return token{}, false
}

func hasScope(k token, prefix string) bool {
	for _, s := range k.Scopes {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
