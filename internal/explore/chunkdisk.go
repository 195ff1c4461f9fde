package explore

import (
	"sync"
	"unsafe"

	"github.com/stateproof/stateproof/internal/spill"
)

// chunkDisk keeps the evicted chunks of a chunks array in a block file,
// one block per chunk, and a few of them read back in a cache: the
// accesses after a search (scans in node order, paths walked back level
// by level) mostly fall in the chunk read last.
type chunkDisk[T any] struct {
	blocks *spill.Blocks
	mu     sync.Mutex
	cache  [chunkCache]cached[T]
	tick   int
	err    error // the first read error: the graph reports it
	size   int   // elements per chunk
}

type cached[T any] struct {
	k, used int
	data    []T
}

// chunkCache is how many evicted chunks are kept read back.
const chunkCache = 4

func newChunkDisk[T any](d *spill.Dir, kind string, size int) (*chunkDisk[T], error) {
	var zero T
	b, err := d.NewBlocks(kind, size*int(unsafe.Sizeof(zero)))
	if err != nil {
		return nil, err
	}
	cd := &chunkDisk[T]{blocks: b, size: size}
	for i := range cd.cache {
		cd.cache[i].k = -1
	}
	return cd, nil
}

func asBytes[T any](data []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*int(unsafe.Sizeof(zero)))
}

// evict writes chunk k to disk and drops it from memory.
func (c *chunks[T]) evict(k int) error {
	if c.dir[k] == nil {
		return nil
	}
	if err := c.disk.blocks.Write(k, asBytes(c.dir[k])); err != nil {
		return err
	}
	c.dir[k] = nil
	return nil
}

// resident counts the chunks in memory.
func (c *chunks[T]) resident() int {
	n := 0
	for _, d := range c.dir[:c.n] {
		if d != nil {
			n++
		}
	}
	return n
}

// load returns evicted chunk k. A read error is kept (the graph's Err
// reports it, and nothing built on the graph passes) and zeros returned.
func (cd *chunkDisk[T]) load(k int) []T {
	cd.mu.Lock()
	defer cd.mu.Unlock()
	cd.tick++
	lru := 0
	for i := range cd.cache {
		if cd.cache[i].k == k {
			cd.cache[i].used = cd.tick
			return cd.cache[i].data
		}
		if cd.cache[i].used < cd.cache[lru].used {
			lru = i
		}
	}
	// a fresh slice, not the evicted entry's: another goroutine may still
	// read the chunk it was given
	data := make([]T, cd.size)
	if err := cd.blocks.Read(k, asBytes(data)); err != nil && cd.err == nil {
		cd.err = err
	}
	cd.cache[lru] = cached[T]{k: k, used: cd.tick, data: data}
	return data
}

func (cd *chunkDisk[T]) readErr() error {
	if cd == nil {
		return nil
	}
	cd.mu.Lock()
	defer cd.mu.Unlock()
	return cd.err
}
