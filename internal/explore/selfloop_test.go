package explore

import (
	"sync/atomic"
	"testing"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// plateau counts its word up to top and then steps to itself for ever,
// as an FCSTM machine that has ended idles; it counts its steps.
type plateau struct {
	top   int64
	steps *atomic.Int64
}

func (plateau) Width() int { return 2 }
func (plateau) Ranges() []concrete.Range {
	return []concrete.Range{{Min: 0, Max: 0}, concrete.Unbounded}
}
func (plateau) Initial(dst []int64) []int64 { dst = dst[:2]; clear(dst); return dst }

func (p plateau) Successors(src []int64, buf *concrete.Buffer) []concrete.Outcome {
	p.steps.Add(1)
	buf.Reset()
	next := buf.Next(2)
	copy(next, src)
	next[1] = min(src[1]+1, p.top)
	buf.Keep(0, next, []int{1})
	return buf.Outcomes()
}

func (p plateau) Fired(src []int64, buf *concrete.Buffer) []concrete.Outcome {
	return p.Successors(src, buf)
}

func (plateau) Describe(int) (from, input, to string) { return "", "count", "" }

// A chain that ends in a node stepping to itself is walked up to that
// node, not guessed on past it: the machine steps each node about once
// (lookahead guesses a few ahead), and the graph is the batches' one.
func TestChainStopsAtASelfLoop(t *testing.T) {
	for _, workers := range []int{1, 2} {
		var steps atomic.Int64
		mc := plateau{top: 1000, steps: &steps}
		want := graphWords(Search{Machine: mc, Cap: 1 << 20, batchesOnly: true}.Run())
		steps.Store(0)
		g := Search{Machine: mc, Cap: 1 << 20, Workers: workers}.Run()
		if got := graphWords(g); got != want {
			t.Errorf("%d workers: the chain's graph differs from the batches'", workers)
		}
		if n := steps.Load(); n > int64(g.Len())*11/10 {
			t.Errorf("%d workers: %d steps for %d nodes", workers, n, g.Len())
		}
	}
}
