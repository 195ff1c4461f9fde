package explore

import (
	"slices"
	"unsafe"

	"github.com/stateproof/stateproof/internal/prefetch"
	"github.com/stateproof/stateproof/internal/spill"
)

// Visited is the visited set of a level-synchronous search (see
// level.go): which nodes are stored, and at what index. The set may
// answer a probe at once or only when the level is settled, in one
// batch: a set that spills to disk answers from memory what it holds
// there and from its filters what it surely does not hold, and settles
// the rest by a sorted pass over its runs; a set partitioned over
// processes would settle the nodes other processes own by asking them.
//
// The in-memory search (Search.Run without Spill) keeps its visited set
// in the graph's own sharded tables, probed inline: a call per probe would
// cost the fastest searches a tenth of their time.
type Visited interface {
	// Probe returns the index of the stored node with packed words
	// words and hash h, -1 when it is surely not stored, or Unknown.
	Probe(words []int64, h uint64) int
	// Settle answers the probes that returned Unknown, given in one
	// batch (stride words each, with their hashes): idx[i] is set to the
	// stored index of query i, or -1.
	Settle(words []int64, hashes []uint64, idx []int) error
	// Add records nodes stored at indexes first, first+1, ... (none of
	// them stored before).
	Add(words []int64, hashes []uint64, first int) error
	// MemoryBytes is what the set holds in memory.
	MemoryBytes() int64
}

var _ Visited = (*spillSet)(nil)

// Unknown is Probe's answer for a node it cannot place before Settle.
const Unknown = -2

// spillSet is the Visited set of a spilling search: an exact in-memory
// table of the nodes stored since the last spill, and sorted runs on disk
// of the older ones.
type spillSet struct {
	stride int
	// the in-memory part: keys (stride words each) and indexes of its
	// nodes, and an open-addressed table of entry+1 (0: empty) in the
	// low bits of a slot (as many as its length needs: it is at least
	// twice the entries) and, above them, the same bits of the entry's
	// hash: a probe compares a key only when these match, where on a
	// chain comparing every key it passed, a cache miss each, was two
	// fifths of Probe
	//
	// The keys and indexes are chunks of 1<<bits entries, allocated as
	// the part fills and dropped when it spills. Grown by append, a
	// slice's old array stayed live while the new one filled, and its
	// spans, of ever larger sizes, could not be reused: counted once,
	// the live heap passed the budget by 21 MB (gen counter 30000000 at
	// 155,224 KiB), so the table counted twice: half the entries, twice
	// the runs.
	keys  chunks[int64] // stride<<bits words a chunk
	idx   chunks[int64] // 1<<bits a chunk
	n     int           // entries
	bits  int
	table []uint32
	runs  *spill.Runs
	// found remembers, by hash, nodes that settling found in the runs
	// (foundSlots of them, stride words each, and their indexes +1; 0 is
	// an empty slot): a chain settles each level before it can generate
	// the next, and one that keeps stepping back to a few old nodes (a
	// reset to the initial state, an error state) read their run blocks
	// again at every level, a disk round per state.
	found    []int64
	foundIdx []int64
}

// foundSlots is how many settled nodes spillSet remembers: enough for a
// chain's few hot back edges, small enough to stay in cache.
const foundSlots = 1 << 10

func newSpillSet(d *spill.Dir, stride int) *spillSet {
	s := &spillSet{stride: stride, table: make([]uint32, 1024)}
	for s.bits = 13; s.bits > 4 && stride<<s.bits > entryChunkWords; s.bits-- {
	}
	s.empty()
	s.runs = d.NewRuns(stride, func(k []uint64) uint64 {
		return HashWords(unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(k))), len(k)))
	})
	return s
}

// entryChunkWords is the most words of keys a chunk holds (64 KiB).
const entryChunkWords = 1 << 13

func (s *spillSet) key(e int) []int64 {
	o := (e & (1<<s.bits - 1)) * s.stride
	return s.keys.fresh(e >> s.bits)[o : o+s.stride : o+s.stride]
}

func (s *spillSet) index(e int) *int64 { return &s.idx.fresh(e >> s.bits)[e&(1<<s.bits-1)] }

// empty drops the in-memory part's keys and indexes.
func (s *spillSet) empty() {
	s.keys, s.idx, s.n = newChunks[int64](s.stride<<s.bits), newChunks[int64](1<<s.bits), 0
}

// prefetch starts loading what Probe(_, h) reads first, the table slot
// and the filter block: prefetching the hashes of several nodes before
// probing them has their cache misses overlap.
func (s *spillSet) prefetch(h uint64) {
	prefetch.Line(unsafe.Pointer(&s.table[int(h>>32)&(len(s.table)-1)]))
	s.runs.Prefetch(h)
}

func (s *spillSet) Probe(words []int64, h uint64) int {
	mask := len(s.table) - 1
	for p := int(h>>32) & mask; s.table[p] != 0; p = (p + 1) & mask {
		if t := s.table[p]; (t^uint32(h))&^uint32(mask) == 0 {
			if e := int(t&uint32(mask)) - 1; slices.Equal(s.key(e), words) {
				return int(*s.index(e))
			}
		}
	}
	if !s.runs.MayHave(h) {
		return -1
	}
	if s.found != nil {
		slot := int(h) & (foundSlots - 1)
		if i := s.foundIdx[slot]; i > 0 && slices.Equal(s.found[slot*s.stride:(slot+1)*s.stride], words) {
			return int(i - 1)
		}
	}
	return Unknown
}

// remember keeps a node settling found stored, in its hash's slot.
func (s *spillSet) remember(words []int64, h uint64, idx int) {
	if s.found == nil {
		s.found, s.foundIdx = make([]int64, foundSlots*s.stride), make([]int64, foundSlots)
	}
	slot := int(h) & (foundSlots - 1)
	copy(s.found[slot*s.stride:(slot+1)*s.stride], words)
	s.foundIdx[slot] = int64(idx + 1)
}

func (s *spillSet) Settle(words []int64, hashes []uint64, idx []int) error {
	n := len(hashes)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	w := s.stride
	slices.SortFunc(order, func(a, b int) int { return cmpWords(words[a*w:(a+1)*w], words[b*w:(b+1)*w]) })
	q := make([]uint64, 0, n*w)
	hs := make([]uint64, n)
	vals := make([]int64, n)
	for j, i := range order {
		for _, x := range words[i*w : (i+1)*w] {
			q = append(q, uint64(x))
		}
		hs[j], vals[j] = hashes[i], -1
	}
	if err := s.runs.Lookup(q, hs, vals); err != nil {
		return err
	}
	for j, i := range order {
		idx[i] = int(vals[j])
		if vals[j] >= 0 {
			s.remember(words[i*w:(i+1)*w], hashes[i], idx[i])
		}
	}
	return nil
}

// cmpWords orders keys as the runs do: word by word, unsigned.
func cmpWords(a, b []int64) int {
	for i := range a {
		if x, y := uint64(a[i]), uint64(b[i]); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func (s *spillSet) Add(words []int64, hashes []uint64, first int) error {
	for i, h := range hashes {
		if 2*(s.n+1) > len(s.table) {
			s.grow()
		}
		if s.n>>s.bits == s.idx.n {
			s.keys.add()
			s.idx.add()
		}
		copy(s.key(s.n), words[i*s.stride:(i+1)*s.stride])
		*s.index(s.n) = int64(first + i)
		s.put(s.n, h)
		s.n++
	}
	return nil
}

func (s *spillSet) put(e int, h uint64) {
	mask := len(s.table) - 1
	p := int(h>>32) & mask
	for s.table[p] != 0 {
		p = (p + 1) & mask
	}
	s.table[p] = uint32(h)&^uint32(mask) | uint32(e+1)
}

func (s *spillSet) grow() {
	s.table = make([]uint32, 2*len(s.table))
	for e := range s.n {
		s.put(e, HashWords(s.key(e)))
	}
}

// spill writes the in-memory part as one sorted run and empties it. It
// sorts the part in place, so spilling needs beside the table only the
// order (4 bytes a node), not a sorted copy (8 bytes a word). The slots
// are cleared, not allocated again from 1024: the part fills up to about
// the same size between spills, and regrowing the slots by doubling,
// rehashing every entry each time, took a twentieth of a chain's time.
func (s *spillSet) spill() error {
	n := s.n
	if n == 0 {
		return nil
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmpWords(s.key(int(a)), s.key(int(b))) })
	s.permute(order)
	part := spillSet{stride: s.stride, bits: s.bits, keys: s.keys, idx: s.idx}
	s.empty()
	clear(s.table)
	return s.runs.AddFunc(n, func(e int) ([]uint64, int64) { return asUint64s(part.key(e)), *part.index(e) })
}

// permute moves entry order[j] to j, for every j, following each cycle of
// the permutation once; it marks the entries it placed by complementing
// their order.
func (s *spillSet) permute(order []int32) {
	w := s.stride
	tmp := make([]int64, w)
	for j := range order {
		if order[j] < 0 || int(order[j]) == j {
			continue
		}
		copy(tmp, s.key(j))
		tv := *s.index(j)
		k := j
		for {
			src := int(order[k])
			order[k] = ^order[k]
			if src == j {
				copy(s.key(k), tmp)
				*s.index(k) = tv
				break
			}
			copy(s.key(k), s.key(src))
			*s.index(k) = *s.index(src)
			k = src
		}
	}
}

func (s *spillSet) MemoryBytes() int64 {
	return s.memBytes() + int64(len(s.found)+len(s.foundIdx))*8 + s.runs.MemoryBytes()
}

// memBytes is the part spill would free.
func (s *spillSet) memBytes() int64 {
	return int64(s.idx.n*(s.stride+1))<<s.bits*8 + int64(len(s.table))*4
}

// peakBytes is the most the in-memory part holds before it is written
// out: its chunks, its slots, and the order spill sorts it by. (The slots
// grow by doubling only until the first spill: spill clears them.)
func (s *spillSet) peakBytes() int64 {
	return s.memBytes() + 4*int64(s.n)
}

// entries is how many nodes the in-memory part holds.
func (s *spillSet) entries() int { return s.n }
