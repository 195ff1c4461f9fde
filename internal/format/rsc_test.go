package format

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/frontend/formats"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/prove"
)

// rscModel returns the model an .rsc file of the repository is written
// for: the .json or .fcstm file of the same stem beside it ("-broken"
// dropped).
func rscModel(t *testing.T, path string) string {
	t.Helper()
	stem := strings.TrimSuffix(strings.TrimSuffix(path, ".rsc"), "-broken")
	for _, ext := range []string{".json", ".fcstm"} {
		if _, err := os.Stat(stem + ext); err == nil {
			return stem + ext
		}
	}
	t.Fatalf("%s: no model %s.json or %s.fcstm beside it", path, stem, stem)
	return ""
}

// rscMeaning is what prove reads from an RSC file: per statement, the node
// and the constraint as the canonical printer writes it.
func rscMeaning(t *testing.T, g *prove.Graph, path, src string) string {
	t.Helper()
	props, err := prove.ParseRSC(path, src, g)
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, src)
	}
	var b strings.Builder
	for _, p := range props {
		fmt.Fprintf(&b, "%s %d %s\n", p.ID, p.Node, expr.Format(p.Formula))
	}
	return b.String()
}

// rscComments returns the sorted comment texts of an RSC file as lexRSC
// reads them.
func rscComments(t *testing.T, src string) []string {
	t.Helper()
	els, err := lexRSC(languages["rsc"], src)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range els {
		if e.comment {
			out = append(out, e.text)
		}
	}
	slices.Sort(out)
	return out
}

// TestRSCRepoFiles: every .rsc file of the repository, as it is and
// scrambled, formats idempotently to a file prove reads as the same
// constraints of the same states, with the same comments.
func TestRSCRepoFiles(t *testing.T) {
	files := repoFiles(t, ".rsc")
	for _, path := range files {
		m, err := formats.Registry().Load(input.Reader{}, rscModel(t, path), "")
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		g, err := prove.FromSystem(m.System)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(12) {
			src := string(raw)
			if seed > 0 {
				src = scrambleRSC(t, src, seed)
			}
			out, err := Source(path, []byte(src))
			if err != nil {
				t.Fatalf("%s seed %d: %v\n%s", path, seed, err, src)
			}
			if again, err := Source(path, out); err != nil || string(again) != string(out) {
				t.Fatalf("%s seed %d: not idempotent (%v):\n%s\n---\n%s", path, seed, err, out, again)
			}
			if want, got := rscMeaning(t, g, path, src), rscMeaning(t, g, path, string(out)); got != want {
				t.Fatalf("%s seed %d: the constraints changed:\n%s\n---\n%s", path, seed, want, got)
			}
			if want, got := rscComments(t, src), rscComments(t, string(out)); !slices.Equal(want, got) {
				t.Fatalf("%s seed %d: comments changed: %q, %q", path, seed, want, got)
			}
			if seed == 0 && string(out) != src && strings.HasPrefix(filepath.ToSlash(path), "../../examples/") {
				t.Errorf("%s is not formatted", path)
			}
		}
	}
}

// scrambleRSC rewrites an RSC file with random white space, "//" comments
// between any two elements and "#" and "/* */" comments where the
// expression parser reads them (after the ":").
func scrambleRSC(t *testing.T, src string, seed uint64) string {
	t.Helper()
	els, err := lexRSC(languages["rsc"], src)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 5))
	seps := []string{"", " ", "\n", "\n\n\n", "\t "}
	var b strings.Builder
	var prev *elem
	for i := range els {
		e := &els[i]
		sep := seps[r.IntN(len(seps))]
		switch {
		case prev != nil && prev.comment && !strings.HasPrefix(prev.text, "/*"):
			sep = "\n"
		case sep == "" && prev != nil && (prev.is(expr.IDENT) || prev.raw || e.comment ||
			glued(languages["rsc"], prev, e)):
			sep = " "
		}
		b.WriteString(sep)
		switch k := r.IntN(6); {
		case k == 0:
			fmt.Fprintf(&b, "// s%d\n", i)
		case k == 1 && prev != nil && prev.is(expr.COLON):
			fmt.Fprintf(&b, "# h%d\n", i)
		case k == 2 && prev != nil && prev.is(expr.COLON):
			fmt.Fprintf(&b, "/* b%d */ ", i)
		}
		b.WriteString(e.text)
		prev = e
	}
	return b.String()
}

// TestRSCRules pins the RSC layout and its errors.
func TestRSCRules(t *testing.T) {
	in := "// head\nrsc\"A\":x>-1&&y==2;//c\n\n\nrsc \"B.C\" : (x > 0) ? y : -y == 1 ;"
	want := "// head\nrsc \"A\": x > -1 && y == 2; //c\n\nrsc \"B.C\": (x > 0) ? y : -y == 1;\n"
	out, err := Source("r.rsc", []byte(in))
	if err != nil || string(out) != want {
		t.Fatalf("got %v:\n%s\nwant:\n%s", err, out, want)
	}
	for _, c := range []struct{ in, want string }{
		{"# c\nrsc \"A\": x;", "r.rsc:1:1: expected \"rsc\""},
		{"rsc \"A\": x /* c */;", "r.rsc:1:12: expected \";\""},
		{"rsc \"A\" x;", "r.rsc:1:9: expected \":\""},
		{"rsc \"A\": x >;", "r.rsc:1:13:"},
	} {
		if _, err := Source("r.rsc", []byte(c.in)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q…", c.in, err, c.want)
		}
	}
}
