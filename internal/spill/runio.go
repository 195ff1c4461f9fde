package spill

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
)

// ioBytes is about how many bytes a run's or a sorted chunk's writer or
// reader moves per system call.
const ioBytes = 1 << 16

// recordWriter writes records of fixed width to a file (a run, a sorted
// chunk), encoding them straight into a buffer of whole records that goes
// to the file in one write: through a bufio.Writer each record cost a call
// and a copy, a fifth of a chain's spilling search (gen counter).
type recordWriter struct {
	f   *os.File
	buf []byte
	err error
}

// newRecordWriter writes records of w words with a buffer of about size
// bytes (one record at least).
func newRecordWriter(f *os.File, w, size int) *recordWriter {
	rb := 8 * w
	return &recordWriter{f: f, buf: make([]byte, 0, max(1, size/rb)*rb)}
}

// put appends a record; a write error is kept for flush.
func (cw *recordWriter) put(rec []uint64) {
	rb := 8 * len(rec)
	if len(cw.buf)+rb > cap(cw.buf) {
		cw.write()
	}
	b := cw.buf[len(cw.buf) : len(cw.buf)+rb]
	for j, x := range rec {
		binary.LittleEndian.PutUint64(b[8*j:], x)
	}
	cw.buf = cw.buf[:len(cw.buf)+rb]
}

func (cw *recordWriter) write() {
	if cw.err == nil {
		if _, err := cw.f.Write(cw.buf); err != nil {
			cw.err = fmt.Errorf("spill: writing %s: %w", cw.f.Name(), err)
		}
	}
	cw.buf = cw.buf[:0]
}

// flush writes what is buffered and returns the first write error.
func (cw *recordWriter) flush() error {
	if len(cw.buf) > 0 {
		cw.write()
	}
	return cw.err
}

// runWriter writes a run's records, given in key order, and notes its
// block index as they pass.
type runWriter struct {
	rs  *Runs
	r   *run
	out *recordWriter
	rec []uint64 // a record: the key, then the value
	k   int      // records put
}

// newWriter reserves and creates a run for n records.
func (rs *Runs) newWriter(n int) (*runWriter, error) {
	size := int64(n) * int64(rs.recBytes())
	if err := rs.d.reserve(size); err != nil {
		return nil, err
	}
	f, err := rs.d.create("run")
	if err != nil {
		rs.d.reserve(-size)
		return nil, err
	}
	rb := rs.recBytes()
	return &runWriter{
		rs:  rs,
		r:   &run{f: f, n: n, size: size},
		out: newRecordWriter(f, rs.w+1, min(n*rb, ioBytes)),
		rec: make([]uint64, rs.w+1),
	}, nil
}

// put appends the next record.
func (w *runWriter) put(key []uint64, v int64) error {
	if w.k%blockRecords == 0 {
		w.r.first = append(w.r.first, key...)
		w.r.start = append(w.r.start, w.k)
	}
	if w.k++; w.k == w.r.n {
		w.r.last = slices.Clone(key)
	}
	copy(w.rec, key)
	w.rec[len(key)] = uint64(v)
	w.out.put(w.rec)
	return w.out.err
}

// finish writes what is buffered and returns the run; on an error the
// run's file is removed.
func (w *runWriter) finish(err error) (*run, error) {
	if err == nil && w.k != w.r.n {
		err = fmt.Errorf("spill: %s: %d records written of %d", w.r.f.Name(), w.k, w.r.n)
	}
	if err == nil {
		err = w.out.flush()
	}
	if err != nil {
		w.rs.d.remove(w.r.f, w.r.size)
		return nil, err
	}
	r, rs := w.r, w.rs
	for i := 0; i < len(r.first); i += rs.w {
		r.idx = append(r.idx, r.first[i:i+rs.w])
	}
	return r, nil
}

// runReader reads a run's records in order, a buffer of whole records per
// read.
type runReader struct {
	rs  *Runs
	r   *run
	buf []byte
	off int64 // the file offset the next read starts at
	pos int   // the next record's offset in buf
	key []uint64
	val int64
}

func (rs *Runs) newReader(r *run) *runReader {
	rb := rs.recBytes()
	return &runReader{rs: rs, r: r, buf: make([]byte, 0, max(1, min(r.n, ioBytes/rb))*rb), key: make([]uint64, rs.w)}
}

// next decodes the next record into key and val; false at the run's end.
func (c *runReader) next() (bool, error) {
	rb := c.rs.recBytes()
	if c.pos+rb > len(c.buf) {
		if c.off == c.r.size {
			return false, nil
		}
		n := int(min(int64(cap(c.buf)), c.r.size-c.off))
		c.buf = c.buf[:n]
		if _, err := c.r.f.ReadAt(c.buf, c.off); err != nil {
			return false, fmt.Errorf("spill: reading %s: %w", c.r.f.Name(), err)
		}
		c.off += int64(n)
		c.pos = 0
	}
	b := c.buf[c.pos : c.pos+rb]
	for j := range c.key {
		c.key[j] = binary.LittleEndian.Uint64(b[8*j:])
	}
	c.val = int64(binary.LittleEndian.Uint64(b[8*len(c.key):]))
	c.pos += rb
	return true, nil
}

// concat merges the runs from index from on, when their keys do not
// interleave, by copying their files one after the other in key order
// (in the kernel, where it can) and joining their block indexes, neither
// decoding nor comparing a record: a chain's states, spilled level by
// level, often come in key order (gen counter's do), and merging their
// runs record by record cost a sixth of its spilling search. It reports
// false, having done nothing, when the runs interleave.
func (rs *Runs) concat(from int) (bool, error) {
	parts := slices.Clone(rs.runs[from:])
	slices.SortFunc(parts, func(a, b *run) int { return slices.Compare(a.idx[0], b.idx[0]) })
	var n int
	var size int64
	for i, r := range parts {
		if i > 0 && slices.Compare(parts[i-1].last, r.idx[0]) >= 0 {
			return false, nil
		}
		n, size = n+r.n, size+r.size
	}
	if err := rs.d.reserve(size); err != nil {
		return false, err
	}
	f, err := rs.d.create("run")
	if err != nil {
		rs.d.reserve(-size)
		return false, err
	}
	out := &run{f: f, n: n, size: size, last: parts[len(parts)-1].last}
	base := 0 // the records before part r
	for _, r := range parts {
		var copied int64
		_, err := r.f.Seek(0, io.SeekStart)
		if err == nil {
			copied, err = f.ReadFrom(&io.LimitedReader{R: r.f, N: r.size})
		}
		if err == nil && copied != r.size {
			err = fmt.Errorf("%d bytes of %d copied", copied, r.size)
		}
		if err != nil {
			rs.d.remove(f, size)
			return false, fmt.Errorf("spill: writing %s: %w", f.Name(), err)
		}
		for _, s := range r.start {
			out.start = append(out.start, base+s)
		}
		base += r.n
		out.first = append(out.first, r.first...)
	}
	for i := 0; i < len(out.first); i += rs.w {
		out.idx = append(out.idx, out.first[i:i+rs.w])
	}
	for _, old := range rs.runs[from:] {
		rs.d.remove(old.f, old.size)
	}
	rs.runs = append(rs.runs[:from], out)
	return true, nil
}
