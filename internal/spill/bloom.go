package spill

import "math/bits"

// bloom is a Bloom filter over 64-bit hashes: bitsPerKey bits per key and
// bloomProbes probes, about 0.05% false positives. Each probe position
// comes from the search's own hash of the key by a multiply step, so a
// key costs no hashing of its words beyond the one the search already did.
type bloom struct {
	bits []uint64
	m    uint64 // bits
}

const (
	bitsPerKey  = 16
	bloomProbes = 8
)

func newBloom(n int) *bloom {
	m := uint64(max(64, n*bitsPerKey))
	m = (m + 63) &^ 63
	return &bloom{bits: make([]uint64, m/64), m: m}
}

// probe steps a probe sequence: a linear congruential step, whose high
// bits, scaled to 0..m-1 by a multiplication (no division), are the next
// probe position.
func (b *bloom) probe(x uint64) (uint64, uint64) {
	x = x*6364136223846793005 + 1442695040888963407
	p, _ := bits.Mul64(x, b.m)
	return x, p
}

func (b *bloom) add(h uint64) {
	x, p := h, uint64(0)
	for range bloomProbes {
		x, p = b.probe(x)
		b.bits[p/64] |= 1 << (p % 64)
	}
}

func (b *bloom) has(h uint64) bool {
	x, p := h, uint64(0)
	for range bloomProbes {
		x, p = b.probe(x)
		if b.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

func (b *bloom) bytes() int64 { return int64(len(b.bits)) * 8 }
