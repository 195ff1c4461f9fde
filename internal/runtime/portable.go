package runtime

import (
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math/big"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// A Machine's states and labels travel between the processes of a
// partitioned search: an integer word within ±2^62 is the integer
// itself, but any other is a handle into this machine's table, so it
// travels as the integer's digits and the receiver interns them.
var _ concrete.Portable = (*Machine)(nil)

// errBadState is a state received that is not one of the model's.
var errBadState = errors.New("a delivered runtime is not one of this model's")

// Canon replaces each handle by a hash of its integer's digits.
func (mc *Machine) Canon(dst, words []int64) []int64 {
	for k, w := range words {
		if small(w) {
			continue
		}
		dst = append(dst[:0], words...)
		for j := k; j < len(dst); j++ {
			if !small(dst[j]) {
				h := fnv.New64a()
				h.Write([]byte(mc.Int(dst[j]).Text(16)))
				dst[j] = int64(h.Sum64())
			}
		}
		return dst
	}
	return words
}

// AppendState writes each word as a varint: an integer zigzagged and
// shifted left, or, with the low bit set, the length of a big integer's
// hexadecimal digits, then the digits.
func (mc *Machine) AppendState(dst []byte, words []int64) []byte {
	for _, w := range words {
		if !small(w) {
			text := mc.Int(w).Text(16)
			dst = binary.AppendUvarint(dst, uint64(len(text))<<1|1)
			dst = append(dst, text...)
			continue
		}
		dst = binary.AppendUvarint(dst, zigzag(w)<<1)
	}
	return dst
}

func zigzag(w int64) uint64 { return uint64(w<<1) ^ uint64(w>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// ReadState reads what AppendState wrote, interning big integers in
// mc's table; a state index out of range is an error.
func (mc *Machine) ReadState(src []byte, dst []int64) ([]byte, error) {
	for k := range dst {
		u, n := binary.Uvarint(src)
		if n <= 0 {
			return nil, errShort
		}
		src = src[n:]
		if u&1 == 0 {
			dst[k] = unzigzag(u >> 1)
			continue
		}
		size := u >> 1
		if size > uint64(len(src)) {
			return nil, errShort
		}
		x, ok := new(big.Int).SetString(string(src[:size]), 16)
		if !ok {
			return nil, errors.New("bad integer in a delivered runtime")
		}
		src = src[size:]
		dst[k] = mc.Word(x)
	}
	if dst[0] < 0 || int(dst[0]) >= len(mc.States) {
		return nil, errBadState
	}
	return src, nil
}

var errShort = errors.New("truncated runtime")

// AppendLabel writes the transition index.
func (mc *Machine) AppendLabel(dst []byte, label int) []byte {
	return binary.AppendUvarint(dst, uint64(label))
}

// ReadLabel reads a transition index, which must be the model's.
func (mc *Machine) ReadLabel(src []byte) (int, []byte, error) {
	u, n := binary.Uvarint(src)
	if n <= 0 {
		return 0, nil, errShort
	}
	if u >= uint64(len(mc.Model.Transitions)) {
		return 0, nil, errors.New("a delivered transition is not one of this model's")
	}
	return int(u), src[n:], nil
}
