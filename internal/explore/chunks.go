package explore

// chunks is an array that grows by fixed-size chunks which never move, so
// that a stored node's words, link and monitor values keep their address.
// The directory of chunks is reallocated only when a chunk is added past
// its room; a pipelined batch (see pipeline.go) reserves the room first,
// so that the interning goroutine adds chunks while the expanding one
// reads older chunks, and neither writes a word the other reads.
type chunks[T any] struct {
	dir  [][]T // len(dir) is the room; the first n entries are allocated
	n    int
	size int // elements per chunk
	// disk holds the chunks a spilling search evicted (their dir entry
	// is nil); nil while every chunk is in memory.
	disk *chunkDisk[T]
}

func newChunks[T any](size int) chunks[T] { return chunks[T]{size: size} }

// chunk returns chunk k, read back from disk if it was evicted (only a
// spilling search evicts: see spilled.go).
func (c *chunks[T]) chunk(k int) []T {
	if d := c.dir[k]; d != nil {
		return d
	}
	return c.disk.load(k)
}

// fresh returns chunk k, which must be one the search is still filling:
// those are never evicted (a spilling search evicts only chunks wholly
// below its frontier, see level.go), so the store paths skip chunk's
// evicted-chunk branch, which costs on every stored node.
func (c *chunks[T]) fresh(k int) []T { return c.dir[k] }

// reserve makes room in the directory for k chunks.
func (c *chunks[T]) reserve(k int) {
	if k <= len(c.dir) {
		return
	}
	dir := make([][]T, max(k, 2*len(c.dir), 4))
	copy(dir, c.dir[:c.n])
	c.dir = dir
}

// add allocates one more chunk.
func (c *chunks[T]) add() {
	c.reserve(c.n + 1)
	c.dir[c.n] = make([]T, c.size)
	c.n++
}

// stretch makes chunk 0, the only chunk, hold at least n elements (at
// most size): it is allocated small and doubled as it fills, moving, so
// that a store holding a few wide nodes takes memory for those few. Only
// a graph that nothing reads while it grows may stretch (see NewStore).
func (c *chunks[T]) stretch(n int) {
	if c.n == 0 {
		c.reserve(1)
		c.dir[0] = make([]T, min(c.size, n))
		c.n = 1
		return
	}
	if old := c.dir[0]; len(old) < n {
		c.dir[0] = make([]T, min(c.size, max(n, 2*len(old))))
		copy(c.dir[0], old)
	}
}

// fill sets elements lo up to hi-1 to v, a chunk at a time.
func (c *chunks[T]) fill(lo, hi int, v T) {
	for lo < hi {
		k, off := lo/c.size, lo%c.size
		part := c.dir[k][off:min(c.size, off+hi-lo)]
		part[0] = v
		for n := 1; n < len(part); n *= 2 {
			copy(part[n:], part[:n])
		}
		lo += len(part)
	}
}
