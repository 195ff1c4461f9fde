package explore

import (
	"fmt"
	"testing"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// dial is a machine of no model format: a location turning 0→1→2→0
// (label 0), a bit flipped by label 1, and a word counting up to 3 by
// label 2, which the machine declares unbounded. It shows that a search
// needs nothing of a machine but the seam.
type dial struct{}

func (dial) Width() int { return 3 }
func (dial) Ranges() []concrete.Range {
	return []concrete.Range{{Min: 0, Max: 2}, concrete.Bit, concrete.Unbounded}
}
func (dial) Initial(dst []int64) []int64 { dst = dst[:3]; clear(dst); return dst }

var dialChanged = [][]int{nil, {1}, {2}}

func (d dial) Successors(src []int64, buf *concrete.Buffer) []concrete.Outcome {
	buf.Reset()
	for label := range 3 {
		if label == 2 && src[2] == 3 {
			continue
		}
		next := buf.Next(3)
		copy(next, src)
		switch label {
		case 0:
			next[0] = (src[0] + 1) % 3
		case 1:
			next[1] ^= 1
		case 2:
			next[2]++
		}
		buf.Keep(label, next, dialChanged[label])
	}
	return buf.Outcomes()
}
func (d dial) Fired(src []int64, buf *concrete.Buffer) []concrete.Outcome {
	return d.Successors(src, buf)
}
func (dial) Describe(label int) (from, input, to string) {
	return "", []string{"turn", "flip", "count"}[label], ""
}

func TestSearchOverAnyMachine(t *testing.T) {
	g := Search{Machine: dial{}, Cap: 100}.Run()
	if g.Len() != 24 || g.Truncated {
		t.Fatalf("%d states (truncated %v), want 24", g.Len(), g.Truncated)
	}
	for i := range g.Len() {
		r := g.Runtime(i, nil)
		// Breadth-first: the depth is the fewest turns, flips and counts.
		if want := int(r[0]) + int(r[1]) + int(r[2]); g.Depth(i) != want {
			t.Errorf("node %v at depth %d, want %d", r, g.Depth(i), want)
		}
		if j := g.Lookup(r); j != i {
			t.Errorf("Lookup(%v) = %d, want %d", r, j, i)
		}
	}
	last := g.Runtime(g.Len()-1, nil)
	if fmt.Sprint(last) != "[2 1 3]" || len(g.Path(g.Len()-1)) != 6 || g.Path(g.Len() - 1)[0].Event != "turn" {
		t.Errorf("last node %v, path %v", last, g.Path(g.Len()-1))
	}
	if got := graphWords(Search{Machine: dial{}, Cap: 100, Workers: 2, MinParallel: 1}.Run()); got != graphWords(g) {
		t.Errorf("two workers:\n%s\none:\n%s", got, graphWords(g))
	}
	spilled := Search{Machine: dial{}, Cap: 100, Spill: &Spill{Memory: 1 << 30, Dir: spillDir(t, 0), MemoryNodes: 5}}.Run()
	if spilled.spill == nil {
		t.Error("a budget of 5 nodes did not spill")
	}
	if got := graphWords(spilled); got != graphWords(g) {
		t.Errorf("spilled:\n%s\nin memory:\n%s", got, graphWords(g))
	}
	a := g.Adjacency()
	if n := len(a.To); n != 24*3-6 {
		t.Errorf("%d edges, want %d", n, 24*3-6)
	}
	g = Search{Machine: dial{}, Cap: 10}.Run()
	if !g.Truncated {
		t.Error("a cap of 10 did not truncate a search of 24 states")
	}
}

func graphWords(g *Graph) string {
	s := ""
	for i := range g.Len() {
		p, t := g.Parent(i)
		s += fmt.Sprintln(g.Runtime(i, nil), p, t)
	}
	return s
}
