package cluster

import (
	"encoding/binary"
	"sort"
)

// indexList is the global index of every owned state, by local index. A
// worker stores its states in increasing global order, and with N
// workers consecutive owned states are about N apart, so the list keeps
// varint deltas, a byte or two a state, in pages with the first index and
// byte offset of each: a worker whose states spill keeps this in memory
// instead of eight bytes a state.
type indexList struct {
	n     int
	last  int64
	bytes []byte
	pages []page
}

type page struct {
	first int64 // the global index of the page's first entry
	off   int   // where its deltas start in bytes (the first has none)
}

// pageLen is how many entries a page holds: reading one decodes at most
// this many varints.
const pageLen = 128

func (l *indexList) len() int { return l.n }

// add appends global index g, which must be greater than the last.
func (l *indexList) add(g int64) {
	if l.n%pageLen == 0 {
		l.pages = append(l.pages, page{first: g, off: len(l.bytes)})
	} else {
		l.bytes = binary.AppendUvarint(l.bytes, uint64(g-l.last))
	}
	l.last = g
	l.n++
}

// memBytes is what the list holds in memory.
func (l *indexList) memBytes() int64 {
	return int64(cap(l.bytes)) + int64(cap(l.pages))*16
}

// at returns the global index of local index i.
func (l *indexList) at(i int) int64 {
	it := l.from(i)
	return it.next()
}

// find returns the local index of global index g, if owned.
func (l *indexList) find(g int64) (int, bool) {
	p := sort.Search(len(l.pages), func(k int) bool { return l.pages[k].first > g }) - 1
	if p < 0 {
		return 0, false
	}
	it := l.from(p * pageLen)
	for i := p * pageLen; i < min(l.n, (p+1)*pageLen); i++ {
		switch x := it.next(); {
		case x == g:
			return i, true
		case x > g:
			return 0, false
		}
	}
	return 0, false
}

// indexIter reads the list in order from a local index on.
type indexIter struct {
	l   *indexList
	i   int // the local index next returns
	g   int64
	off int
}

// from returns an iterator whose first next is local index i's entry.
func (l *indexList) from(i int) *indexIter {
	it := &indexIter{l: l, i: i/pageLen*pageLen - 1}
	for it.i+1 < i {
		it.next()
	}
	return it
}

// next returns the next entry's global index.
func (it *indexIter) next() int64 {
	it.i++
	if it.i%pageLen == 0 {
		pg := it.l.pages[it.i/pageLen]
		it.g, it.off = pg.first, pg.off
		return it.g
	}
	d, k := binary.Uvarint(it.l.bytes[it.off:])
	it.off += k
	it.g += int64(d)
	return it.g
}
