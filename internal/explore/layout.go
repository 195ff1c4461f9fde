package explore

import (
	"math/bits"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// layout packs a node's words for storage, as the machine's ranges allow
// (concrete.Machine.Ranges): the location in the low 32 bits of word 0,
// words whose range is a bit (boolean variables) as single bits (32 in the
// high half of word 0, then 64 per word), and every other word, extra
// words included, one word each. Most models are mostly booleans and a state, so most nodes fit in
// one or two words — which is what makes a million-state search cheap in
// both memory and cache misses.
type layout struct {
	width    int   // unpacked words: runtime then extra
	bools    []int // unpacked positions of bit words
	wide     []int // unpacked positions stored one word each
	boolBase int   // number of words holding the location and bits
	packed   int   // packed words per node
	boolOf   []int // per unpacked position: its bit rank, or -1
	wideOf   []int // per unpacked position: its rank among the wide words, or -1
	// compact says a node's information fits in 32 bits: one packed
	// word whose state needs stateBits bits and whose booleans sit
	// above them. The visited set then keeps the node itself in a slot
	// (see key), so a probe decides without loading the arena.
	compact   bool
	stateBits int
}

func newLayout(m concrete.Machine, extra int) layout {
	rs := m.Ranges()
	l := layout{width: len(rs) + extra}
	l.boolOf = make([]int, l.width)
	l.wideOf = make([]int, l.width)
	for p := range l.width {
		l.boolOf[p], l.wideOf[p] = -1, -1
		switch {
		case p == 0:
		case p < len(rs) && rs[p] == concrete.Bit:
			l.boolOf[p] = len(l.bools)
			l.bools = append(l.bools, p)
		default:
			l.wideOf[p] = len(l.wide)
			l.wide = append(l.wide, p)
		}
	}
	l.boolBase = 1
	if n := len(l.bools); n > 32 {
		l.boolBase += (n - 32 + 63) / 64
	}
	l.packed = l.boolBase + len(l.wide)
	l.stateBits = bits.Len(uint(max(rs[0].Max, 0)))
	l.compact = l.packed == 1 && l.stateBits+len(l.bools) <= 32
	return l
}

// key is the 32 bits a visited-set slot keeps beside the node's
// reference: the node itself in a compact layout, otherwise the high half
// of its hash (which settles most mismatches without the arena).
func (l *layout) key(words []int64, h uint64) uint64 {
	if !l.compact {
		return h >> 32
	}
	w := uint64(words[0])
	return uint64(uint32(w)) | w>>32<<l.stateBits
}

// unkey returns the packed word of a compact layout's key.
func (l *layout) unkey(k uint64) int64 {
	return int64(k&(1<<l.stateBits-1) | k>>l.stateBits<<32)
}

// bitPos returns the word and bit of the k-th boolean.
func bitPos(k int) (word, bit int) {
	if k < 32 {
		return 0, 32 + k
	}
	k -= 32
	return 1 + k/64, k % 64
}

func (l *layout) pack(dst, node []int64) {
	for i := 0; i < l.boolBase; i++ {
		dst[i] = 0
	}
	dst[0] = int64(uint32(node[0]))
	for k, p := range l.bools {
		if node[p] != 0 {
			w, b := bitPos(k)
			dst[w] |= 1 << b
		}
	}
	for k, p := range l.wide {
		dst[l.boolBase+k] = node[p]
	}
}

func (l *layout) unpack(dst, packed []int64) {
	dst[0] = int64(uint32(packed[0]))
	for k, p := range l.bools {
		w, b := bitPos(k)
		dst[p] = packed[w] >> b & 1
	}
	for k, p := range l.wide {
		dst[p] = packed[l.boolBase+k]
	}
}

// patch turns dst, the packed form of a node's source, into the packed form
// of node, a successor in which only the location, the words in changed
// (concrete.Outcome.Changed) and the wide words can differ. It saves
// repacking every bit per edge.
func (l *layout) patch(dst, node []int64, changed []int) {
	dst[0] = dst[0]&^0xFFFFFFFF | int64(uint32(node[0]))
	for _, p := range changed {
		if k := l.boolOf[p]; k >= 0 {
			w, b := bitPos(k)
			dst[w] = dst[w]&^(1<<b) | (node[p]&1)<<b
		}
	}
	for k, p := range l.wide {
		dst[l.boolBase+k] = node[p]
	}
}
