package verify

import (
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

// firstNode finds the first node that passes its test whatever the number
// of goroutines, with hits in one range, in several, or in none.
func TestFirstNodeIsTheFirst(t *testing.T) {
	res, err := jsonmodel.Decode([]byte(gen.Counter(300_000)))
	if err != nil || !res.Valid() {
		t.Fatal(err)
	}
	g := explore.Explore(runtime.Compile(res.Model), 1<<20)
	n := g.Len()
	cases := map[string][]int{"none": nil, "root": {0}, "last": {n - 1}, "second range": {n - 2, n/2 + 7}, "both ranges": {n - 5, 12345, n / 2}}
	for name, hits := range cases {
		want := -1
		set := map[int]bool{}
		for _, h := range hits {
			set[h] = true
			if want < 0 || h < want {
				want = h
			}
		}
		for _, workers := range []int{1, 2, 3, 8} {
			got := firstNode(g, workers, func(i int, buf []int64) bool {
				if len(buf) != g.Width() {
					t.Fatalf("scratch of %d words", len(buf))
				}
				return set[i]
			})
			if got != want {
				t.Errorf("%s, %d workers: node %d, want %d", name, workers, got, want)
			}
		}
	}
}
