package format

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/query"
)

// checkFBMCQ formats a query and checks that the output formats to itself,
// parses to an equal query and keeps every comment.
func checkFBMCQ(t *testing.T, path, src string) string {
	t.Helper()
	q, err := query.Parse(path, src)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out, err := Source(path, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	again, err := Source(path, out)
	if err != nil {
		t.Fatalf("%s: formatted text does not format: %v\n%s", path, err, out)
	}
	if string(again) != string(out) {
		t.Fatalf("%s: not idempotent:\n--- once\n%s\n--- twice\n%s", path, out, again)
	}
	q2, err := query.Parse(path, string(out))
	if err != nil {
		t.Fatalf("%s: the formatted query does not parse: %v\n%s", path, err, out)
	}
	if !query.Equal(q, q2) || query.Format(q) != query.Format(q2) {
		t.Fatalf("%s: the query changed:\n%s\n%s", path, query.Format(q), query.Format(q2))
	}
	if want, got := comments(src, 0), comments(string(out), 0); !slices.Equal(want, got) {
		t.Fatalf("%s: comments changed:\n%q\n%q", path, want, got)
	}
	return string(out)
}

// TestFBMCQRepoFiles: every .fbmcq file of the repository, as it is and
// scrambled at random (white space and comments between any two tokens).
func TestFBMCQRepoFiles(t *testing.T) {
	files := repoFiles(t, ".fbmcq")
	if len(files) < 20 {
		t.Fatalf("only %d query files", len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checkFBMCQ(t, path, string(src))
		for seed := range uint64(10) {
			checkFBMCQ(t, path, scrambleQuery(string(src), seed))
		}
	}
}

// scrambleQuery rewrites a query token by token with random white space
// and //, # and /* */ comments between the tokens.
func scrambleQuery(src string, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 41))
	seps := []string{"", " ", " ", "\n", "\n\n\n", "\t  "}
	var b strings.Builder
	sc := expr.NewScanner(src, 0)
	n := 0
	var prev expr.Token
	for t := sc.Scan(); t.Kind != expr.EOF; t = sc.Scan() {
		sep := seps[r.IntN(len(seps))]
		if sep == "" && b.Len() > 0 && glued(languages["fbmcq"], &elem{kind: prev.Kind, text: prev.Text}, &elem{kind: t.Kind, text: t.Text}) {
			sep = " "
		}
		b.WriteString(sep)
		n++
		switch r.IntN(10) {
		case 0:
			fmt.Fprintf(&b, "// c%d\n", n)
		case 1:
			fmt.Fprintf(&b, "# c%d \n", n)
		case 2:
			fmt.Fprintf(&b, "/* c%d */", n)
		}
		b.WriteString(t.Text)
		prev = t
	}
	return b.String()
}

// TestFBMCQRules pins the query layout of docs/fmt.md.
func TestFBMCQRules(t *testing.T) {
	in := "// model: door.fcstm\ninit state(\"W\") havoc {a,b} where (x>0) ? a : b;assume at 2 : x>-1 ;\n\n\nassume event(\"e\", 1 .. 3)==true;" +
		"check reach<=3:active(\"A\")&&!x&&called(\"A.B\",*,stage=\"enter\", step=-1..+2) ;  // why\n#end\n"
	want := "// model: door.fcstm\ninit state(\"W\") havoc { a, b } where (x > 0) ? a : b;\nassume at 2: x > -1;\n\n" +
		"assume event(\"e\", 1..3) == true;\ncheck reach <= 3: active(\"A\") && !x && called(\"A.B\", *, stage=\"enter\", step=-1..+2); // why\n#end\n"
	out := checkFBMCQ(t, "q.fbmcq", in)
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}
