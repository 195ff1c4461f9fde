package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/runtime"
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

// runtime appends a runtime's words. An integer word within ±2^62 is
// the integer itself; any other is a handle into the sending process's
// table of big integers (package runtime), meaningless elsewhere, so it
// goes as the integer's digits and the receiver interns them in its own
// table.
func (e *enc) runtime(mc *runtime.Machine, ws []int64) {
	for _, w := range ws {
		if isHandle(w) {
			text := mc.Int(w).Text(16)
			e.u(uint64(len(text))<<1 | 1)
			e.b = append(e.b, text...)
			continue
		}
		e.u(zigzag(w) << 1)
	}
}

// isHandle reports whether an integer word is a big-integer handle: its
// top two bits differ (see package runtime's integer words).
func isHandle(w int64) bool { return w^(w<<1) < 0 }

func zigzag(w int64) uint64 { return uint64(w<<1) ^ uint64(w>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// ownerHash hashes a runtime by value, the same in every process: a big
// integer counts by its digits, not by its handle.
func ownerHash(mc *runtime.Machine, ws []int64) uint64 {
	for _, w := range ws {
		if isHandle(w) {
			canon := slices.Clone(ws)
			for k, w := range canon {
				if isHandle(w) {
					canon[k] = int64(fnv(mc.Int(w).Text(16)))
				}
			}
			return explore.HashWords(canon)
		}
	}
	return explore.HashWords(ws)
}

func fnv(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
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

// runtime reads what enc.runtime wrote into dst, interning big integers
// in mc's table.
func (d *dec) runtime(mc *runtime.Machine, dst []int64) {
	for k := range dst {
		u := d.u()
		if u&1 == 0 {
			dst[k] = unzigzag(u >> 1)
			continue
		}
		n := u >> 1
		if d.err != nil || n > uint64(len(d.b)) {
			d.err = errShort
			return
		}
		x, ok := new(big.Int).SetString(string(d.b[:n]), 16)
		if !ok {
			d.err = errors.New("cluster: bad integer in message")
			return
		}
		d.b = d.b[n:]
		dst[k] = mc.Word(x)
	}
}

// done returns the first error, or one if bytes are left over.
func (d *dec) done() error {
	if d.err == nil && len(d.b) > 0 {
		d.err = errors.New("cluster: trailing bytes in message")
	}
	return d.err
}
