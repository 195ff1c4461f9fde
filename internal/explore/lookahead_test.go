package explore

import (
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/gen"
)

// On a chain the guesses are the real next nodes: from node 1 of the
// counter (c = 1) a lookahead touches the slots of nodes 2 to 1+lookDepth,
// and it guesses only every lookDepth narrow batches.
func TestLookaheadGuessesTheChain(t *testing.T) {
	mc := machine(t, gen.Counter(100))
	g := Explore(mc, 1000)
	la := newLookahead(g)
	la.ahead(g, mc, g.packedNode(1))
	var want []uint64
	for i := 2; i <= 1+lookDepth; i++ {
		want = append(want, HashWords(g.packedNode(i)))
	}
	if !slices.Equal(la.hashes, want) {
		t.Fatalf("guessed hashes %x, want those of nodes 2..%d: %x", la.hashes, 1+lookDepth, want)
	}
	la.hashes = nil
	for range lookDepth - 1 {
		la.ahead(g, mc, g.packedNode(1))
	}
	if la.hashes != nil {
		t.Fatal("a lookahead guessed again before lookDepth batches")
	}
	la.ahead(g, mc, g.packedNode(1))
	if len(la.hashes) != lookDepth {
		t.Fatalf("the next lookahead guessed %d nodes", len(la.hashes))
	}
}

// A lookahead from a wide frontier stops at lookNodes guesses.
func TestLookaheadBounded(t *testing.T) {
	mc := machine(t, gen.Toggles(12))
	g := Explore(mc, 100)
	la := newLookahead(g)
	la.ahead(g, mc, g.packedNode(0))
	if len(la.hashes) != lookNodes {
		t.Fatalf("%d guesses, want %d", len(la.hashes), lookNodes)
	}
}

// A spilling search guesses ahead of a chain too: from level i of a
// counter searched to disk, the level's lookAhead guesses the nodes the
// next lookDepth levels store, read from the spilled graph's own words,
// and touches their slots in the visited set (issue 42 item 1: a chain's
// probes waited out two cache misses a level).
func TestSpilledChainLooksAhead(t *testing.T) {
	mc := machine(t, gen.Counter(3000))
	s := &Search{Machine: mc, Cap: 1 << 20, Spill: &Spill{Memory: 1 << 30, Dir: spillDir(t, 0), MemoryNodes: 300, Now: true}}
	g := s.Run()
	if g.SpillStats().Spills == 0 {
		t.Fatal("the search did not spill")
	}
	for _, i := range []int{1, 1000, 2500} {
		lv := &level{g: g, s: s}
		lv.lookAhead(i, i+1)
		var want []uint64
		for j := i + 1; j <= i+lookDepth; j++ {
			want = append(want, HashWords(g.packedNode(j)))
		}
		if !slices.Equal(lv.look.hashes, want) {
			t.Fatalf("from level %d: guessed %x, want the hashes of nodes %d..%d: %x", i, lv.look.hashes, i+1, i+lookDepth, want)
		}
	}
}

// The guesses keep each source's expansion for the spilling search to
// recall: the outcomes, packed successors and hashes stepping the source
// gives, for every source stepped in full; none for a source the guess
// cap cut short, or one not guessed.
func TestLookaheadRecallsExpansions(t *testing.T) {
	for _, src := range []string{gen.Counter(100), gen.Toggles(12)} {
		mc := machine(t, src)
		g := Explore(mc, 1<<20)
		la := newLookahead(g)
		la.memo = true
		la.ahead(g, mc, g.packedNode(1))
		node, succ, packed := make([]int64, g.lay.width), make([]int64, g.lay.width), make([]int64, g.stride)
		var buf concrete.Buffer
		recalled, partial := 0, 0
		for i := range g.Len() {
			words := g.packedNode(i)
			outs, pre, hashes, ok := la.recall(words)
			stepped := slices.ContainsFunc(slices.Collect(slices.Chunk(la.srcs, g.stride)), func(s []int64) bool { return slices.Equal(s, words) })
			if ok != stepped {
				t.Fatalf("node %d: recalled %v, stepped in full %v", i, ok, stepped)
			}
			if !ok {
				continue
			}
			recalled++
			g.lay.unpack(node, words)
			want := mc.Successors(node[:mc.Width()], &buf)
			if len(outs) != len(want) || len(pre) != len(want)*g.stride || len(hashes) != len(want) {
				t.Fatalf("node %d: %d outcomes recalled, %d stepped", i, len(outs), len(want))
			}
			for e, o := range want {
				successor(succ, o.Next, node)
				copy(packed, words)
				g.lay.patch(packed, succ, o.Changed)
				if outs[e].Label != o.Label || !slices.Equal(outs[e].Next, succ) ||
					!slices.Equal(pre[e*g.stride:(e+1)*g.stride], packed) || hashes[e] != HashWords(packed) {
					t.Fatalf("node %d, outcome %d: recalled %+v, stepped %+v", i, e, outs[e], o)
				}
			}
		}
		if len(la.hashes) == lookNodes {
			partial++
		}
		if recalled < 2 || (src == gen.Toggles(12)) != (partial == 1) {
			t.Fatalf("%d sources recalled, guess cap reached %d", recalled, partial)
		}
	}
}
