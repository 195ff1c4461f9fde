package cluster

import "fmt"

// numbering is a level's new states numbered: per worker, how many of
// its states are kept and their global indexes, delta-coded (the body of
// its Assign), how many are kept in all, and the last kept one's key.
type numbering struct {
	idx    []enc
	counts []int
	kept   int
	last   key
}

// keyList reads one worker's sorted keys.
type keyList struct {
	d    *dec
	left int
	head key
	has  bool // head holds a key not yet numbered
	read bool // a key was read
}

// next loads the list's following key into head, checking the list goes
// up: the merge below relies on it.
func (l *keyList) next() error {
	if l.has = l.left > 0; !l.has {
		return nil
	}
	l.left--
	k := key{l.head.parent + int64(l.d.u()), int32(l.d.u())}
	if l.d.err != nil {
		return l.d.err
	}
	if k.rank < 0 || l.read && k.cmp(l.head) <= 0 {
		return fmt.Errorf("keys out of order: (%d, %d) after (%d, %d)", k.parent, k.rank, l.head.parent, l.head.rank)
	}
	l.head, l.read = k, true
	return nil
}

// number numbers a level from the workers' sorted key lists (settle's
// answers): the level's global order is the lists merged by key, the
// states numbered from total on, at most cap+1-total of them (a search
// stores at most cap+1 states: the last one proves there are more). The
// lists are merged as they are read, so that worker 0 holds the lists and
// the indexes it sends, a few bytes a state, not every state's key and
// owner as well; the heads are scanned for the least, as the workers are
// few.
func number(lists [][]byte, total, cap int) (*numbering, error) {
	n := len(lists)
	ls := make([]keyList, n)
	all := 0
	for i, b := range lists {
		ls[i] = keyList{d: &dec{b: b}}
		ls[i].left = ls[i].d.n()
		all += ls[i].left
		if err := ls[i].next(); err != nil {
			return nil, fmt.Errorf("worker %d: %v", i, err)
		}
	}
	nb := &numbering{idx: make([]enc, n), counts: make([]int, n), kept: min(all, cap+1-total)}
	prev := make([]int64, n)
	for j := range nb.kept {
		m := -1
		for i := range ls {
			if ls[i].has && (m < 0 || ls[i].head.cmp(ls[m].head) < 0) {
				m = i
			}
		}
		g := int64(total + j)
		nb.idx[m].u(uint64(g - prev[m]))
		prev[m] = g
		nb.counts[m]++
		nb.last = ls[m].head
		if err := ls[m].next(); err != nil {
			return nil, fmt.Errorf("worker %d: %v", m, err)
		}
	}
	// the rest is read too, so that a malformed answer is an error
	for i := range ls {
		for ls[i].has {
			if err := ls[i].next(); err != nil {
				return nil, fmt.Errorf("worker %d: %v", i, err)
			}
		}
		if err := ls[i].d.done(); err != nil {
			return nil, fmt.Errorf("worker %d: %v", i, err)
		}
	}
	return nb, nil
}
