package spill

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"unsafe"

	"github.com/stateproof/stateproof/internal/prefetch"
)

// Runs is a set of (key, value) records on disk in sorted runs: keys are
// w words each, compared as unsigned words in order, and unique across
// the set; a value is an int64 (a node's index). One Bloom filter of every
// stored key's hash is kept in memory, so a query it rejects costs no
// read; each run keeps its first and last key and the first key of each
// block, so a batch of sorted queries reads, per run, only the blocks
// that can hold one, in increasing order, each once.
type Runs struct {
	d    *Dir
	w    int
	hash func(key []uint64) uint64
	runs []*run
	// filter holds the hashes of every stored key; it is rebuilt, from
	// the runs, half again as large whenever the records pass capacity.
	filter   *bloom
	capacity int
	// freeFilter is the filter size from which a rebuild first returns
	// the old filter's memory (freeFilterBytes; tests lower it).
	freeFilter int64
	// Lookups counts the blocks read by Lookup, for the statistics.
	BlockReads int64
}

type run struct {
	f     *os.File
	n     int // records
	size  int64
	last  []uint64   // the run's last key
	first []uint64   // the first key of each block, w words each
	idx   [][]uint64 // first, one key per block
	// start is each block's first record: blocks are blockRecords long
	// but where concat joined two runs
	start []int
}

// blockRecords is the records per block: 8 KiB for one-word keys.
const blockRecords = 512

// maxRuns is the most runs Add keeps: every query probes each run's
// filter.
const maxRuns = 16

// NewRuns returns an empty set of records with keys of w words; hash must
// be the hash the queries give for a key.
func (d *Dir) NewRuns(w int, hash func(key []uint64) uint64) *Runs {
	return &Runs{d: d, w: w, hash: hash, freeFilter: freeFilterBytes}
}

// Len is the number of records stored.
func (rs *Runs) Len() int {
	n := 0
	for _, r := range rs.runs {
		n += r.n
	}
	return n
}

// MayHave reports whether some run's filter admits hash h: false means
// the key is surely not stored.
func (rs *Runs) MayHave(h uint64) bool {
	return rs.filter != nil && rs.filter.has(h)
}

// Prefetch starts loading the filter block MayHave(h) will read: a
// caller that prefetches the blocks of several hashes before it asks
// about them has their cache misses overlap.
func (rs *Runs) Prefetch(h uint64) {
	if rs.filter != nil {
		blk, _ := rs.filter.block(h)
		prefetch.Line(unsafe.Pointer(&blk[0]))
	}
}

// MemoryBytes is what the filters and block indexes hold in memory.
func (rs *Runs) MemoryBytes() int64 {
	var b int64
	if rs.filter != nil {
		b = rs.filter.bytes()
	}
	for _, r := range rs.runs {
		b += int64(len(r.first))*8 + int64(len(r.idx))*24 + int64(len(r.start))*8
	}
	return b
}

func (rs *Runs) recBytes() int { return 8 * (rs.w + 1) }

// Add writes one run of n records, given as keys (n*w words, sorted, none
// stored before) and their values, and merges the runs when there are too
// many.
func (rs *Runs) Add(keys []uint64, vals []int64) error {
	return rs.AddFunc(len(vals), func(i int) ([]uint64, int64) { return keys[i*rs.w : (i+1)*rs.w], vals[i] })
}

// AddFunc is Add with the records given by rec, record i (in key order) at
// a time; the key it returns is read before the next call.
func (rs *Runs) AddFunc(n int, rec func(i int) (key []uint64, val int64)) error {
	if n == 0 {
		return nil
	}
	wr, err := rs.newWriter(n)
	if err != nil {
		return err
	}
	for i := range n {
		if err = wr.put(rec(i)); err != nil {
			break
		}
	}
	r, err := wr.finish(err)
	if err != nil {
		return err
	}
	rs.runs = append(rs.runs, r)
	if rs.Len() > rs.capacity {
		// the caller's records are not needed any more: unreferenced,
		// refilter can free them before it allocates the new filter
		rec = nil
		if err := rs.refilter(); err != nil {
			return err
		}
	} else {
		hs := make([]uint64, 0, min(n, 1<<12))
		for i := range n {
			key, _ := rec(i)
			if hs = append(hs, rs.hash(key)); len(hs) == cap(hs) {
				rs.filter.addAll(hs)
				hs = hs[:0]
			}
		}
		rs.filter.addAll(hs)
	}
	// Size-tiered merging: once mergeFan runs of about one size (the
	// newest, within a factor of mergeFan of each other) accumulate,
	// they become one run of the next tier, so each record is rewritten
	// about log_mergeFan(spills) times and the runs stay few; past
	// maxRuns the newest two merge whatever their sizes.
	for {
		k := len(rs.runs)
		from := k - 1
		for from > 0 && rs.runs[from-1].n < mergeFan*rs.runs[k-1].n {
			from--
		}
		switch {
		case k-from >= mergeFan:
		case k > maxRuns:
			from = k - 2
		default:
			return nil
		}
		if err := rs.merge(from); err != nil {
			return err
		}
	}
}

// refilter rebuilds the filter for half again the records stored,
// reading every run once: the rebuilds read about three times the records
// in all, and the filter holds at most a half more bits than it needs.
func (rs *Runs) refilter() error {
	rs.capacity = max(rs.Len()*3/2, 1<<12)
	old := rs.filter
	rs.filter = nil // not asked while it is rebuilt: let it go first
	if old != nil && old.bytes() >= rs.freeFilter {
		// The collector would free the old filter only after the new one
		// is allocated and its pages touched, and the memory limit's
		// scavenger would return the pages later still: both filters
		// were resident at once (gen counter 30000000 at --memory 138MiB:
		// 45 and 67 MB, its heap at 190 MiB against a limit of 178).
		debug.FreeOSMemory()
	}
	rs.filter = newBloom(rs.capacity)
	hs := make([]uint64, 0, 1<<12)
	for _, r := range rs.runs {
		rd := rs.newReader(r)
		for {
			ok, err := rd.next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			if hs = append(hs, rs.hash(rd.key)); len(hs) == cap(hs) {
				rs.filter.addAll(hs)
				hs = hs[:0]
			}
		}
	}
	rs.filter.addAll(hs)
	return nil
}

// freeFilterBytes is the size from which refilter returns the old
// filter's memory before it allocates the new one: a forced collection
// costs a few milliseconds, a smaller filter's overlap little memory.
const freeFilterBytes = 8 << 20

// mergeFan is how many runs of one tier are merged at once.
const mergeFan = 4

// merge replaces the runs from index from on by one, in one forward pass
// over each.
func (rs *Runs) merge(from int) error {
	if ok, err := rs.concat(from); ok || err != nil {
		return err
	}
	n := 0
	cur := make([]*runReader, 0, len(rs.runs)-from)
	for _, r := range rs.runs[from:] {
		n += r.n
		c := rs.newReader(r)
		ok, err := c.next()
		if err != nil {
			return err
		}
		if ok {
			cur = append(cur, c)
		}
	}
	wr, err := rs.newWriter(n)
	if err != nil {
		return err
	}
	for len(cur) > 0 && err == nil {
		best := 0
		for i, c := range cur[1:] {
			if slices.Compare(c.key, cur[best].key) < 0 {
				best = i + 1
			}
		}
		c := cur[best]
		if err = wr.put(c.key, c.val); err != nil {
			break
		}
		var ok bool
		if ok, err = c.next(); !ok && err == nil {
			cur = slices.Delete(cur, best, best+1)
		}
	}
	r, err := wr.finish(err)
	if err != nil {
		return err
	}
	for _, old := range rs.runs[from:] {
		rs.d.remove(old.f, old.size)
	}
	rs.runs = append(rs.runs[:from], r)
	return nil
}

// Lookup sets vals[i] to the value of queries[i] (w words each, the
// queries sorted and distinct) when it is stored, leaving the others
// untouched; hashes are the queries' hashes.
func (rs *Runs) Lookup(queries []uint64, hashes []uint64, vals []int64) error {
	w := rs.w
	buf := make([]byte, blockRecords*rs.recBytes())
	for _, r := range rs.runs {
		loaded, nrec := -1, 0
		for i := range hashes {
			if vals[i] >= 0 || !rs.filter.has(hashes[i]) {
				continue
			}
			q := queries[i*w : (i+1)*w]
			if slices.Compare(q, r.last) > 0 {
				break // the queries are sorted: none further is in this run
			}
			// the last block whose first key is at most q
			b, found := slices.BinarySearchFunc(r.idx, q, func(blk, q []uint64) int { return slices.Compare(blk, q) })
			if !found {
				b--
			}
			if b < 0 {
				continue
			}
			if b != loaded {
				end := r.n
				if b+1 < len(r.start) {
					end = r.start[b+1]
				}
				nrec = end - r.start[b]
				off := int64(r.start[b]) * int64(rs.recBytes())
				if _, err := r.f.ReadAt(buf[:nrec*rs.recBytes()], off); err != nil {
					return fmt.Errorf("spill: reading %s: %w", r.f.Name(), err)
				}
				loaded = b
				rs.BlockReads++
			}
			if v, ok := rs.inBlock(buf[:nrec*rs.recBytes()], q); ok {
				vals[i] = v
			}
		}
	}
	return nil
}

// inBlock binary-searches a block's records for key q.
func (rs *Runs) inBlock(blk []byte, q []uint64) (int64, bool) {
	rb := rs.recBytes()
	lo, hi := 0, len(blk)/rb
	key := make([]uint64, rs.w)
	for lo < hi {
		mid := (lo + hi) / 2
		for j := range key {
			key[j] = binary.LittleEndian.Uint64(blk[mid*rb+8*j:])
		}
		switch c := slices.Compare(key, q); {
		case c == 0:
			return int64(binary.LittleEndian.Uint64(blk[mid*rb+8*rs.w:])), true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}
