package explore

import "github.com/stateproof/stateproof/internal/frontend/concrete"

// A narrow search (one or two sources per batch: a chain that branches
// now and then, or one that edge callbacks keep out of epochs, see
// chain.go) cannot overlap the cache misses of the visited set while it
// interns: each new node waits for its own slot, and that wait is most of
// the search. A lookahead guesses the next levels by stepping a narrow batch's
// candidates as if every one were new, and touches the table slots of the
// guesses together, so that their misses overlap and the batches that
// follow find their slots in cache. Guesses are only loaded, never
// stored: a wrong one costs a little time, never a different graph.
const (
	lookSources = 2  // the most sources of a batch that counts as narrow
	lookDepth   = 8  // levels guessed at once, every lookDepth narrow batches
	lookNodes   = 32 // the most guessed nodes per lookahead
)

// lookahead is the scratch of the guesses.
type lookahead struct {
	due       int     // narrow batches until the next guess
	cur, next []int64 // the packed guesses of one level and of the next
	node      []int64 // an unpacked guess
	succ      []int64 // an unpacked successor
	packed    []int64
	hashes    []uint64
	buf       concrete.Buffer
}

func newLookahead(g *Graph) lookahead {
	return lookahead{node: make([]int64, g.lay.width), succ: make([]int64, g.lay.width), packed: make([]int64, g.stride)}
}

// ahead guesses, every lookDepth calls, the lookDepth levels after the
// packed candidates words, and returns the hashes of the guesses for the
// caller to touch its visited set's slots with (nil when not due).
func (la *lookahead) ahead(g *Graph, m concrete.Machine, words []int64) []uint64 {
	if la.due--; la.due > 0 {
		return nil
	}
	la.due = lookDepth
	la.cur = append(la.cur[:0], words...)
	la.hashes = la.hashes[:0]
	for range lookDepth {
		la.next = la.next[:0]
		for i := 0; i < len(la.cur) && len(la.hashes) < lookNodes; i += g.stride {
			la.guess(g, m, la.cur[i:i+g.stride])
		}
		la.cur, la.next = la.next, la.cur
	}
	return la.hashes
}

// guess steps one packed guess and keeps its successors (up to lookNodes
// guesses in all).
func (la *lookahead) guess(g *Graph, m concrete.Machine, src []int64) {
	w := m.Width()
	g.lay.unpack(la.node, src)
	for _, o := range m.Successors(la.node[:w], &la.buf) {
		if len(la.hashes) == lookNodes {
			return
		}
		successor(la.succ, o.Next, la.node)
		copy(la.packed, src)
		g.lay.patch(la.packed, la.succ, o.Changed)
		la.hashes = append(la.hashes, HashWords(la.packed))
		la.next = append(la.next, la.packed...)
	}
}
