package spill

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
)

// Sorter sorts records of w words, compared as unsigned words in order,
// in at most about memory bytes: what passes that is sorted and written
// to a file, a sorted chunk, and the chunks are merged when the records
// are read back. A breadth-first level too wide for the budget is
// deduplicated and numbered this way (delayed duplicate detection): its
// successors by key, then the new ones by the order they were found in.
type Sorter struct {
	d      *Dir
	w      int
	limit  int      // words held before a chunk is written
	memory int64    // the bytes it may hold: its records, or its chunks' read buffers
	buf    []uint64 // the records not yet written, w words each
	order  []item   // buf's records in order, when sorted
	tmp    []item   // the radix sort's other half
	chunks []chunkFile
}

type chunkFile struct {
	f    *os.File
	size int64
}

// The chunks are merged with a read buffer each, of at most maxReadBuf
// bytes and together at most the sorter's memory (its records are
// dropped first): a wide level in a small budget makes hundreds of chunks,
// whose read buffers of a fixed size once held more than the budget. Below
// minReadBuf a buffer costs a read call for a few records, so chunks past
// memory/minReadBuf are first merged in groups into longer chunks.
const (
	maxReadBuf = 16 << 10
	minReadBuf = 4 << 10
)

// NewSorter returns an empty sorter of w-word records that holds about
// memory bytes of them (at least one record) before it writes a chunk.
func (d *Dir) NewSorter(w int, memory int64) *Sorter {
	recs := max(1, memory/int64(8*w+32)) // 8 B a word, 32 for its place in order (twice)
	limit := int(min(recs, 1<<31-1)) * w
	return &Sorter{d: d, w: w, limit: limit, memory: memory}
}

// Chunks is how many sorted chunks the sorter has written.
func (s *Sorter) Chunks() int { return len(s.chunks) }

// MemoryBytes is what the sorter holds in memory.
func (s *Sorter) MemoryBytes() int64 {
	return int64(cap(s.buf))*8 + int64(cap(s.order)+cap(s.tmp))*16
}

// Add adds one record (w words).
func (s *Sorter) Add(rec []uint64) error {
	if len(s.buf)+s.w > cap(s.buf) {
		// grown by doubling up to the limit, never past it: the limit is
		// the sorter's share of a budget
		s.buf = slices.Grow(s.buf, min(s.limit, max(2*cap(s.buf), 64*s.w))-len(s.buf))
	}
	s.buf = append(s.buf, rec...)
	if len(s.buf) >= s.limit {
		return s.flush()
	}
	return nil
}

// item is a record's place in the sort: its first word, which settles
// most comparisons without a load from the buffer, and its index.
type item struct {
	first uint64
	i     int
}

// sort orders buf's records in s.order. A comparison sort of a wide
// level's successors took a sixth of a spilling search's time; the first
// words are put in order by a radix sort instead, a byte a pass from the
// lowest, skipping the bytes all records share (a level's nodes differ in
// a few bytes of their first word), and only the records whose first
// words are equal are compared, by the words after it. The radix passes
// go between order and tmp, which is why the sorter counts two items a
// record.
func (s *Sorter) sort() {
	w, n := s.w, len(s.buf)/s.w
	s.order = slices.Grow(s.order[:0], n)[:n]
	s.tmp = slices.Grow(s.tmp[:0], n)[:n]
	if n == 0 {
		return
	}
	var counts [8][256]int
	for i := range s.order {
		x := s.buf[i*w]
		s.order[i] = item{x, i}
		for b := range counts {
			counts[b][byte(x>>(8*b))]++
		}
	}
	src, dst := s.order, s.tmp
	for b := range counts {
		c := &counts[b]
		if c[byte(src[0].first>>(8*b))] == n {
			continue // one value: the pass would change nothing
		}
		at := 0
		for d := range c {
			c[d], at = at, at+c[d]
		}
		for _, it := range src {
			d := byte(it.first >> (8 * b))
			dst[c[d]] = it
			c[d]++
		}
		src, dst = dst, src
	}
	s.order, s.tmp = src, dst
	if w == 1 {
		return
	}
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && s.order[hi].first == s.order[lo].first {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(s.order[lo:hi], func(a, b item) int {
				return slices.Compare(s.buf[a.i*w+1:(a.i+1)*w], s.buf[b.i*w+1:(b.i+1)*w])
			})
		}
		lo = hi
	}
}

// flush writes the records held as one sorted chunk.
func (s *Sorter) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	s.sort()
	size := int64(len(s.buf)) * 8
	if err := s.d.reserve(size); err != nil {
		return err
	}
	f, err := s.d.create("sort")
	if err != nil {
		s.d.reserve(-size)
		return err
	}
	cw := newRecordWriter(f, s.w, ioBytes)
	for _, it := range s.order {
		cw.put(s.buf[it.i*s.w : (it.i+1)*s.w])
	}
	if err := cw.flush(); err != nil {
		s.d.remove(f, size)
		return err
	}
	s.chunks = append(s.chunks, chunkFile{f, size})
	s.buf = s.buf[:0]
	return nil
}

// Each calls f with every record added, in order, until f returns false,
// and empties the sorter (its chunk files are removed). f must not keep
// the slice it is given.
func (s *Sorter) Each(f func(rec []uint64) bool) error {
	defer s.reset()
	if len(s.chunks) == 0 {
		s.sort()
		for _, it := range s.order {
			if !f(s.buf[it.i*s.w : (it.i+1)*s.w]) {
				return nil
			}
		}
		return nil
	}
	if err := s.flush(); err != nil {
		return err
	}
	s.Free() // the read buffers take the records' room
	fan := int(max(2, s.memory/minReadBuf))
	for len(s.chunks) > fan {
		if err := s.mergeGroup(fan); err != nil {
			return err
		}
	}
	return s.merge(s.chunks, f)
}

// mergeGroup merges the first fan chunks into one, put last.
func (s *Sorter) mergeGroup(fan int) error {
	group := s.chunks[:fan]
	var size int64
	for _, c := range group {
		size += c.size
	}
	if err := s.d.reserve(size); err != nil {
		return err
	}
	f, err := s.d.create("sort")
	if err != nil {
		s.d.reserve(-size)
		return err
	}
	cw := newRecordWriter(f, s.w, maxReadBuf)
	werr := s.merge(group, func(rec []uint64) bool {
		cw.put(rec)
		return cw.err == nil
	})
	if err := cw.flush(); werr == nil {
		werr = err
	}
	if werr != nil {
		s.d.remove(f, size)
		return werr
	}
	for _, c := range group {
		s.d.remove(c.f, c.size)
	}
	s.chunks = append(s.chunks[fan:], chunkFile{f, size})
	return nil
}

// cursor is a chunk being merged: its next record, decoded from a
// buffer of whole records read in one call (a read and a decode call per
// record cost a tenth of a wide level's spilling search).
type cursor struct {
	r    io.Reader
	buf  []byte
	at   int // the next record's offset in buf
	rec  []uint64
	done bool
}

// merge calls f with the records of chunks in order: a binary heap of the
// chunks by their next record.
func (s *Sorter) merge(chunks []chunkFile, f func(rec []uint64) bool) error {
	bufSize := int(min(maxReadBuf, max(int64(8*s.w), s.memory/int64(len(chunks)))))
	heap := make([]*cursor, 0, len(chunks))
	for _, c := range chunks {
		rb := 8 * s.w
		cur := &cursor{r: io.NewSectionReader(c.f, 0, c.size), buf: make([]byte, 0, max(1, bufSize/rb)*rb), rec: make([]uint64, s.w)}
		ok, err := s.next(cur)
		if err != nil {
			return err
		}
		if ok {
			heap = append(heap, cur)
		}
	}
	less := func(i, j int) bool {
		a, b := heap[i].rec, heap[j].rec
		if a[0] != b[0] {
			return a[0] < b[0] // most comparisons, without a call
		}
		return slices.Compare(a[1:], b[1:]) < 0
	}
	down := func(i int) {
		for {
			m := i
			if l := 2*i + 1; l < len(heap) && less(l, m) {
				m = l
			}
			if r := 2*i + 2; r < len(heap) && less(r, m) {
				m = r
			}
			if m == i {
				return
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
	}
	for i := len(heap)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(heap) > 0 {
		if !f(heap[0].rec) {
			return nil
		}
		ok, err := s.next(heap[0])
		if err != nil {
			return err
		}
		if !ok {
			heap[0] = heap[len(heap)-1]
			heap = heap[:len(heap)-1]
		}
		down(0)
	}
	return nil
}

// next reads a cursor's next record; false at the chunk's end.
func (s *Sorter) next(c *cursor) (bool, error) {
	rb := 8 * s.w
	if c.at+rb > len(c.buf) {
		if c.done {
			return false, nil
		}
		n, err := io.ReadFull(c.r, c.buf[:cap(c.buf)])
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			c.done = true
		case err != nil:
			return false, fmt.Errorf("spill: reading a sorted chunk: %w", err)
		}
		if n%rb != 0 {
			return false, fmt.Errorf("spill: reading a sorted chunk: %d bytes, not whole records of %d", n, rb)
		}
		c.buf, c.at = c.buf[:n], 0
		if n == 0 {
			return false, nil
		}
	}
	b := c.buf[c.at : c.at+rb]
	for j := range c.rec {
		c.rec[j] = binary.LittleEndian.Uint64(b[8*j:])
	}
	c.at += rb
	return true, nil
}

// Free drops the sorter's buffers (it stays usable): a budget's share
// held only while the records are sorted.
func (s *Sorter) Free() { s.buf, s.order, s.tmp = nil, nil, nil }

// reset removes the chunk files and empties the sorter, keeping its
// buffers.
func (s *Sorter) reset() {
	for _, c := range s.chunks {
		s.d.remove(c.f, c.size)
	}
	s.chunks = s.chunks[:0]
	s.buf = s.buf[:0]
}
