package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

// TestExploredGiven: a plain exploration built outside verify (as a
// partitioned search builds it: a store filled in discovery order, no
// riding monitors) gives the report verify builds itself, at the default
// cap and at one that truncates.
func TestExploredGiven(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.json")
	broken, _ := filepath.Glob("../../examples/broken/*.json")
	for _, f := range append(files, broken...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := jsonmodel.Decode(src)
		if err != nil || !res.Valid() {
			continue
		}
		for _, cap := range []int{10000, 5} {
			opts := DefaultOptions()
			opts.MaxStates = cap
			want := reportBytes(t, src, opts)
			g := explore.Search{Machine: runtime.Compile(res.Model), Cap: cap}.Run()
			copied := explore.NewStore(g.M, 0, g.Len())
			for i := range g.Len() {
				p, via := g.Parent(i)
				copied.Intern(g.Runtime(i, nil), p, via)
			}
			copied.Expanded, copied.Truncated, copied.Cap = g.Expanded, g.Truncated, g.Cap
			opts.Explored = copied
			if e := newEnv(res.Model, opts); e.explored() != copied || e.mc != copied.M {
				t.Fatalf("%s: verify does not use the given exploration", f)
			}
			if got := reportBytes(t, src, opts); !bytes.Equal(got, want) {
				t.Errorf("%s, cap %d: the report over the given exploration differs:\n%s", f, cap, firstDiff(got, want))
			}
		}
	}
}
