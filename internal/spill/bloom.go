package spill

// bloom is a Bloom filter over 64-bit hashes: bitsPerKey bits per key and
// bloomProbes probes, about 0.05% false positives. Each probe position
// comes from the two halves of the hash (double hashing), so a key costs
// no hashing beyond the one the search already did.
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

func (b *bloom) add(h uint64) {
	h1, h2 := h&(1<<32-1), h>>32|1
	for i := uint64(0); i < bloomProbes; i++ {
		p := (h1 + i*h2) % b.m
		b.bits[p/64] |= 1 << (p % 64)
	}
}

func (b *bloom) has(h uint64) bool {
	h1, h2 := h&(1<<32-1), h>>32|1
	for i := uint64(0); i < bloomProbes; i++ {
		p := (h1 + i*h2) % b.m
		if b.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

func (b *bloom) bytes() int64 { return int64(len(b.bits)) * 8 }
