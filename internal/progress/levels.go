package progress

import "sort"

// Levels follows the breadth-first depth of the node a search expands,
// from its parent links alone, so a search keeps no depth per node. In
// breadth-first order a node's parent never comes before an earlier
// node's, so level d+1 begins at the first node whose parent lies in level
// d or later; each level's start is found by galloping from the last one,
// which costs one parent read per level of a chain and a logarithm of the
// level's width otherwise. Its zero value is at the root. It belongs to
// one search.
type Levels struct {
	depth int
	start int // first node of level depth
	next  int // first node of level depth+1, found, plus one (0: not yet)
}

// At returns the depth of node expanded, the next node the search
// expands: every node before it is expanded and its successors stored,
// stored nodes in all. parent(i) is node i's parent, for 0 < i < stored.
// Calls must not go back (expanded and stored never decrease).
func (l *Levels) At(expanded, stored int, parent func(int) int) int {
	for {
		if l.next == 0 {
			l.next = l.find(stored, parent) + 1
		}
		next := l.next - 1
		if expanded < next || next >= stored {
			return l.depth
		}
		l.depth, l.start, l.next = l.depth+1, next, 0
	}
}

// find returns the first node of level depth+1, or stored when none is
// stored yet. Level depth is complete (every node of the level before is
// expanded), so the answer is final either way: what is stored later
// comes after it.
func (l *Levels) find(stored int, parent func(int) int) int {
	lo, hi, step := l.start+1, l.start+1, 1
	for hi < stored && parent(hi) < l.start {
		lo, hi, step = hi+1, hi+step, 2*step
	}
	hi = min(hi, stored)
	return lo + sort.Search(hi-lo, func(k int) bool { return parent(lo+k) >= l.start })
}
