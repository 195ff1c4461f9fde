package editortest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/query"
)

// expand returns a snippet body as VS Code inserts it when every
// placeholder keeps its default: ${N:default} is its (expanded) default,
// ${N|a,b|} its first choice, $N and ${N} nothing; \$ \} \\ are the
// characters themselves.
func expand(body string) string {
	out, _ := expandUntil(body, 0, false)
	return out
}

// expandUntil expands from i; inside a placeholder (nested) it stops at
// the closing brace and returns the index after it.
func expandUntil(s string, i int, nested bool) (string, int) {
	var b strings.Builder
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.ContainsRune(`$}\`, rune(s[i+1])):
			b.WriteByte(s[i+1])
			i += 2
		case nested && c == '}':
			return b.String(), i + 1
		case c == '$' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			i++
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case c == '$' && i+1 < len(s) && s[i+1] == '{':
			j := i + 2
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			switch {
			case j < len(s) && s[j] == ':':
				inner, next := expandUntil(s, j+1, true)
				b.WriteString(inner)
				i = next
			case j < len(s) && s[j] == '|':
				end := strings.Index(s[j:], "|}")
				b.WriteString(strings.SplitN(s[j+1:j+end], ",", 2)[0])
				i = j + end + 2
			default: // ${N}
				i = j + 1
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), i
}

func TestExpand(t *testing.T) {
	for in, want := range map[string]string{
		`state ${1:Name} {$0}`:                  `state Name {}`,
		`event ${1:E}${2: named "${3:label}"};`: `event E named "label";`,
		`def ${1|int,float|} x;`:                `def int x;`,
		`def * -> p_\$0; havoc { ${3:x} \}`:     `def * -> p_$0; havoc { x }`,
		`a${1}b$12c`:                            `abc`,
	} {
		if got := expand(in); got != want {
			t.Errorf("expand(%q) = %q, want %q", in, got, want)
		}
	}
}

type snippet struct {
	Prefix string   `json:"prefix"`
	Body   []string `json:"body"`
}

func readSnippets(t *testing.T, lang string) map[string]snippet {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "editors", "vscode", "snippets", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]snippet
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("snippets/%s.json: %v", lang, err)
	}
	return m
}

// fcstmContext puts an FCSTM snippet where it belongs: a variable before
// a root state, an if block in an action, the rest in a state body.
func fcstmContext(name, text string) string {
	switch name {
	case "Variable":
		return text + "\nstate Root;\n"
	case "If":
		return "state Root {\n\tenter {\n" + text + "\n\t}\n}\n"
	}
	return "state Root {\n" + text + "\n}\n"
}

// fbmcqContext completes an FBMCQ snippet to a query: clauses other than
// check get one.
func fbmcqContext(text string) string {
	if strings.Contains(text, "check ") {
		return text + "\n"
	}
	return text + "\ncheck reach <= 1: true;\n"
}

// TestSnippetsParse inserts every snippet with its defaults where it
// belongs and requires the project's parser to accept the result and the
// grammar to tokenise it cleanly: a snippet must never insert text the
// language refuses.
func TestSnippetsParse(t *testing.T) {
	var texts []textRef
	for _, lang := range []string{"fcstm", "fbmcq"} {
		snippets := readSnippets(t, lang)
		if len(snippets) < 10 {
			t.Fatalf("snippets/%s.json has %d snippets", lang, len(snippets))
		}
		names := make([]string, 0, len(snippets))
		for n := range snippets {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			s := snippets[name]
			if s.Prefix == "" || len(s.Body) == 0 {
				t.Errorf("%s snippet %q has no prefix or body", lang, name)
				continue
			}
			text := expand(strings.Join(s.Body, "\n"))
			var err error
			if lang == "fcstm" {
				text = fcstmContext(name, text)
				_, err = parser.Parse(name, text)
			} else {
				text = fbmcqContext(text)
				_, err = query.Parse(name, text)
			}
			if err != nil {
				t.Errorf("%s snippet %q inserts text the parser refuses: %v\n%s", lang, name, err, text)
			}
			texts = append(texts, textRef{Name: lang + " " + name, Scope: "source." + lang, Text: text})
		}
	}
	r := tokenize(t, nil, texts)
	for _, x := range r.Texts {
		for _, k := range x.Tokens {
			if hasScope(k, "invalid") || (len(k.Scopes) == 1 && strings.TrimSpace(k.Text) != "") {
				t.Errorf("%s: %s", x.Name, k)
			}
		}
	}
	// Every query kind has a snippet.
	fb := readSnippets(t, "fbmcq")
	for _, kind := range []string{"reach", "exists_always", "cover", "forbid", "invariant", "must_reach", "response"} {
		found := false
		for _, s := range fb {
			found = found || strings.Contains(strings.Join(s.Body, ""), "check "+kind+" ")
		}
		if !found {
			t.Errorf("no FBMCQ snippet for check %s", kind)
		}
	}
}
