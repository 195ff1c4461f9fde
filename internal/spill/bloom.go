package spill

import "math/bits"

// bloom is a blocked Bloom filter over 64-bit hashes: bitsPerKey bits per
// key (under 0.5% false positives, each costing the search one block
// read), and a key's bloomProbes probes all fall in one 512-bit block (one
// cache line), so a query that misses costs one cache miss. The block and
// the probes come from the search's own hash of the key (a multiply step
// per probe), so a key costs no hashing of its words beyond the search's.
type bloom struct {
	bits   []uint64
	blocks uint64
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

// next steps a probe sequence (a linear congruential step) and returns
// the next bit of the block, from the step's high bits.
func next(x uint64) (uint64, uint64) {
	x = x*6364136223846793005 + 1442695040888963407
	return x, x >> 55 // 0..511
}

func (b *bloom) add(h uint64) {
	blk, x := b.block(h)
	var p uint64
	for range bloomProbes {
		x, p = next(x)
		blk[p/64] |= 1 << (p % 64)
	}
}

func (b *bloom) has(h uint64) bool {
	blk, x := b.block(h)
	var p uint64
	for range bloomProbes {
		x, p = next(x)
		if blk[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

func (b *bloom) bytes() int64 { return int64(len(b.bits)) * 8 }
