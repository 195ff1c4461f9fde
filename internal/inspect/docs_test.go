package inspect

import (
	"os"
	"strings"
	"testing"
	"unicode"
)

// headingAnchors are the anchors GitHub gives the headings of a Markdown
// file: lower case, spaces as '-', every other punctuation but '-' and
// '_' dropped.
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

// TestDocPathAnchors: every code's link lands on a heading of
// docs/inspect.md, its own for every code but the load errors.
func TestDocPathAnchors(t *testing.T) {
	anchors := headingAnchors(t, "../../docs/inspect.md")
	for _, c := range append(Codes(), Code{Name: "E_SYNTAX"}) {
		page, anchor, _ := strings.Cut(DocPath(c.Name), "#")
		if page != DocPage || !anchors[anchor] {
			t.Errorf("%s: %s is not a heading of docs/inspect.md", c.Name, DocPath(c.Name))
		}
		if own := strings.ToLower(c.Name); c.Name[0] != 'E' && anchor != own {
			t.Errorf("%s: anchor %q, want its own section %q", c.Name, anchor, own)
		}
	}
}
