package spill

import "math/bits"

// bloom is a blocked Bloom filter over 64-bit hashes: bitsPerKey bits per
// key (under 0.5% false positives, each costing the search one block
// read), and a key's bloomProbes probes all fall in one 512-bit block (one
// cache line), so a query that misses costs one cache miss. The block and
// the probes come from the search's own hash of the key, so a key costs no
// hashing of its words beyond the search's: the block from its high bits,
// the probes from 9-bit fields of two products of it, which do not wait on
// each other (a probe sequence of dependent steps made a filter rebuild
// wait out each cache miss in turn).
type bloom struct {
	bits   []uint64
	blocks uint64
	sink   uint64 // keeps addAll's loads
}

const (
	bitsPerKey  = 12
	bloomProbes = 8
	blockWords  = 8 // 512 bits
)

func newBloom(n int) *bloom {
	blocks := uint64(max(1, (n*bitsPerKey+511)/512))
	return &bloom{bits: make([]uint64, blocks*blockWords), blocks: blocks}
}

// block returns the key's block; the probes follow from x.
func (b *bloom) block(h uint64) (blk []uint64, x uint64) {
	k, _ := bits.Mul64(h, b.blocks) // h scaled to 0..blocks-1, without a division
	return b.bits[k*blockWords : (k+1)*blockWords], h
}

func (b *bloom) add(h uint64) {
	blk, x := b.block(h)
	x1, x2 := x*probeMul1, x*probeMul2
	for i := range bloomProbes / 2 {
		p1, p2 := x1>>(55-9*i)&511, x2>>(55-9*i)&511
		blk[p1/64] |= 1 << (p1 % 64)
		blk[p2/64] |= 1 << (p2 % 64)
	}
}

// addBatch is how many hashes addAll touches ahead of setting their bits:
// their blocks (4 KiB) stay in the first-level cache meanwhile.
const addBatch = 64

// addAll adds many hashes. A filter larger than the cache costs a cache
// miss per key, and add's probe sequence is a chain of dependent steps, so
// adding key after key waits out one miss at a time: a rebuild of a few
// million keys spent most of its time there. Loading every block of a
// batch first, in a loop with nothing else to wait for, lets the misses
// overlap; the bits are then set in blocks already in cache.
func (b *bloom) addAll(hs []uint64) {
	for len(hs) > 0 {
		n := min(len(hs), addBatch)
		var sink uint64
		for _, h := range hs[:n] {
			k, _ := bits.Mul64(h, b.blocks)
			sink += b.bits[k*blockWords]
		}
		b.sink += sink
		for _, h := range hs[:n] {
			b.add(h)
		}
		hs = hs[n:]
	}
}

func (b *bloom) has(h uint64) bool {
	blk, x := b.block(h)
	x1, x2 := x*probeMul1, x*probeMul2
	for i := range bloomProbes / 2 {
		p1, p2 := x1>>(55-9*i)&511, x2>>(55-9*i)&511
		if blk[p1/64]&(1<<(p1%64)) == 0 || blk[p2/64]&(1<<(p2%64)) == 0 {
			return false
		}
	}
	return true
}

const (
	probeMul1 = 0x9e3779b97f4a7c15
	probeMul2 = 0xc2b2ae3d27d4eb4f
)

func (b *bloom) bytes() int64 { return int64(len(b.bits)) * 8 }
