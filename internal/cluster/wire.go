package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// rawCodec carries a message as the bytes it is: every message of the
// service is encoded by hand (enc and dec below), so no protobuf code has
// to be generated. It is forced per server and per call, never registered
// globally.
type rawCodec struct{}

func (rawCodec) Name() string { return "stateproof-raw" }

func (rawCodec) Marshal(v any) ([]byte, error) {
	p, ok := v.(*[]byte)
	if !ok {
		return nil, fmt.Errorf("cluster: cannot marshal %T", v)
	}
	return *p, nil
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	p, ok := v.(*[]byte)
	if !ok {
		return fmt.Errorf("cluster: cannot unmarshal into %T", v)
	}
	*p = append((*p)[:0], data...)
	return nil
}

// enc appends varints to a message.
type enc struct{ b []byte }

func (e *enc) u(x uint64)   { e.b = binary.AppendUvarint(e.b, x) }
func (e *enc) str(s string) { e.u(uint64(len(s))); e.b = append(e.b, s...) }

// state appends a state's words in the machine's portable encoding (a
// format's words may mean something only in the process that made them).
func (e *enc) state(mc concrete.Portable, ws []int64) { e.b = mc.AppendState(e.b, ws) }

// label appends a step label, or none (-1, the root's) as a zero.
func (e *enc) label(mc concrete.Portable, t int) {
	if t < 0 {
		e.u(0)
		return
	}
	e.u(1)
	e.b = mc.AppendLabel(e.b, t)
}

// ownerHash hashes a state by value, the same in every process.
func ownerHash(mc concrete.Portable, ws []int64) uint64 {
	return explore.HashWords(mc.Canon(nil, ws))
}

// dec reads what enc wrote; the first error sticks and every later read
// returns zero, so a message is decoded and then checked once.
type dec struct {
	b   []byte
	err error
}

var errShort = errors.New("cluster: truncated message")

func (d *dec) u() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return x
}

// n reads a count, refusing one larger than the bytes left could hold
// (each counted item takes at least one byte), so a hostile count cannot
// make the reader allocate.
func (d *dec) n() int {
	x := d.u()
	if x > uint64(len(d.b)) {
		if d.err == nil {
			d.err = errShort
		}
		return 0
	}
	return int(x)
}

func (d *dec) str() string {
	k := d.n()
	if d.err != nil {
		return ""
	}
	s := string(d.b[:k])
	d.b = d.b[k:]
	return s
}

// state reads what enc.state wrote into dst.
func (d *dec) state(mc concrete.Portable, dst []int64) {
	if d.err != nil {
		return
	}
	rest, err := mc.ReadState(d.b, dst)
	if err != nil {
		d.err = fmt.Errorf("cluster: %v", err)
		return
	}
	d.b = rest
}

// label reads what enc.label wrote (-1 for none).
func (d *dec) label(mc concrete.Portable) int {
	if d.u() == 0 || d.err != nil {
		return -1
	}
	t, rest, err := mc.ReadLabel(d.b)
	if err != nil {
		d.err = fmt.Errorf("cluster: %v", err)
		return -1
	}
	d.b = rest
	return t
}

// done returns the first error, or one if bytes are left over.
func (d *dec) done() error {
	if d.err == nil && len(d.b) > 0 {
		d.err = errors.New("cluster: trailing bytes in message")
	}
	return d.err
}
