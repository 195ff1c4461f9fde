package compose

import (
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/runtime"
)

// edge is one outcome of a machine-local step: the successor's runtime id
// and the model transition that fired.
type edge struct {
	next  uint32
	trans int32
}

// local interns the runtimes of one machine as dense ids and caches, per id,
// the outcomes of every event of the machine's alphabet. The product search
// then works on ids only: a composite state is a tuple of them.
type local struct {
	mc     *runtime.Machine
	w      int      // words per runtime
	ne     int      // events in the machine's alphabet
	words  []int64  // runtime id i is words[i*w : (i+1)*w]
	table  []uint64 // hash tag in the high 32 bits, id+1 in the low 32
	term   []bool   // per id: its state is terminal
	starts []int32  // per id, ne+1 offsets into edges; -1 until expanded
	edges  []edge
	buf    runtime.StepBuffer
	isTerm []bool // per state index
}

func newLocal(mc *runtime.Machine) *local {
	l := &local{mc: mc, w: mc.Width(), ne: len(mc.Events), table: make([]uint64, 64)}
	for _, s := range mc.Model.States {
		l.isTerm = append(l.isTerm, s.Terminal)
	}
	return l
}

// initial interns the initial runtime and returns its id.
func (l *local) initial() uint32 {
	id, _ := l.intern(l.mc.Initial(make([]int64, l.w)))
	return id
}

func (l *local) runtime(id uint32) []int64 {
	return l.words[int(id)*l.w : (int(id)+1)*l.w]
}

// state is the state index of runtime id.
func (l *local) state(id uint32) int { return int(l.words[int(id)*l.w]) }

// intern returns the id of r, adding it when new.
func (l *local) intern(r []int64) (uint32, bool) {
	h := explore.HashWords(r)
	mask := len(l.table) - 1
	tag := h >> 32
	s := int(h) & mask
	for ; l.table[s] != 0; s = (s + 1) & mask {
		e := l.table[s]
		if e>>32 == tag && slices.Equal(l.runtime(uint32(e)-1), r) {
			return uint32(e) - 1, false
		}
	}
	id := uint32(len(l.term))
	l.words = append(l.words, r...)
	l.term = append(l.term, l.isTerm[r[0]])
	for range l.ne + 1 {
		l.starts = append(l.starts, -1)
	}
	l.table[s] = tag<<32 | uint64(id+1)
	if 4*(int(id)+1) > 3*len(l.table) {
		l.rehash()
	}
	return id, true
}

func (l *local) rehash() {
	old := l.table
	l.table = make([]uint64, 2*len(old))
	mask := len(l.table) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		s := int(explore.HashWords(l.runtime(uint32(e)-1))) & mask
		for l.table[s] != 0 {
			s = (s + 1) & mask
		}
		l.table[s] = e
	}
}

// expand computes the outcomes of every event in runtime id, once.
func (l *local) expand(id uint32) {
	base := int(id) * (l.ne + 1)
	if l.starts[base] >= 0 {
		return
	}
	r := append([]int64(nil), l.runtime(id)...)
	offs := make([]int32, l.ne+1)
	for e := range l.ne {
		offs[e] = int32(len(l.edges))
		for _, o := range l.mc.Step(r, e, &l.buf) {
			next, _ := l.intern(o.Next)
			l.edges = append(l.edges, edge{next: next, trans: int32(o.Label)})
		}
	}
	offs[l.ne] = int32(len(l.edges))
	copy(l.starts[base:], offs) // intern may have grown starts; index afresh
}

// outcomes returns the cached outcomes of local event e in an expanded id.
func (l *local) outcomes(id uint32, e int) []edge {
	base := int(id)*(l.ne+1) + e
	return l.edges[l.starts[base]:l.starts[base+1]]
}
