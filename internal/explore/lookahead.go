package explore

import (
	"slices"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

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
	// memo, when set, keeps the expansion of each guessed source stepped
	// in full, for the search to take instead of stepping it again
	// (recall): a chain's every node is guessed once before it is
	// expanded. Per outcome, in the order of hashes: its label, its
	// unpacked successor (width words) and its packed one (stride).
	memo     bool
	labels   []int
	succs    []int64
	packeds  []int64
	srcs     []int64 // the sources stepped in full, stride words each
	spans    []int32 // per source, its first outcome and the one after its last
	recalled []concrete.Outcome
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
	la.labels, la.succs, la.packeds = la.labels[:0], la.succs[:0], la.packeds[:0]
	la.srcs, la.spans = la.srcs[:0], la.spans[:0]
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
	first := len(la.hashes)
	for _, o := range m.Successors(la.node[:w], &la.buf) {
		if len(la.hashes) == lookNodes {
			return // stepped in part: not kept in the memo
		}
		successor(la.succ, o.Next, la.node)
		copy(la.packed, src)
		g.lay.patch(la.packed, la.succ, o.Changed)
		la.hashes = append(la.hashes, HashWords(la.packed))
		la.next = append(la.next, la.packed...)
		if la.memo {
			la.labels = append(la.labels, o.Label)
			la.succs = append(la.succs, la.succ...)
			la.packeds = append(la.packeds, la.packed...)
		}
	}
	if la.memo {
		la.srcs = append(la.srcs, src...)
		la.spans = append(la.spans, int32(first), int32(len(la.hashes)))
	}
}

// recall returns the expansion of the source whose packed words are src
// as the last guesses stepped it: its outcomes (label and full unpacked
// successor; Changed is not kept), their packed successors and hashes;
// false when they did not step it in full. It is the expansion stepping
// src would give: a step depends on the source's words alone.
func (la *lookahead) recall(src []int64) (outs []concrete.Outcome, packed []int64, hashes []uint64, ok bool) {
	st := len(src)
	for j := 0; j < len(la.spans); j += 2 {
		if !slices.Equal(la.srcs[j/2*st:(j/2+1)*st], src) {
			continue
		}
		lo, hi := int(la.spans[j]), int(la.spans[j+1])
		width := len(la.succ)
		la.recalled = la.recalled[:0]
		for k := lo; k < hi; k++ {
			la.recalled = append(la.recalled, concrete.Outcome{Label: la.labels[k], Next: la.succs[k*width : (k+1)*width]})
		}
		return la.recalled, la.packeds[lo*st : hi*st], la.hashes[lo:hi], true
	}
	return nil, nil, nil, false
}
