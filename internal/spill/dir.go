package spill

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// ErrDiskBudget is the error of a write that would pass the disk budget.
var ErrDiskBudget = errors.New("disk budget reached")

// Dir is a fresh spill directory with its disk accounting.
type Dir struct {
	parent  string // where the directory is made
	path    string // "" until it is made
	maxDisk int64  // 0: no budget
	mu      sync.Mutex
	used    int64
	peak    int64
	seq     int
	files   []*os.File
}

// Open creates a fresh directory for spill files inside parent (the
// system temp directory when parent is ""), with a disk budget of maxDisk
// bytes (0: none). The directory itself is new, so Close removes only
// what the search wrote.
func Open(parent string, maxDisk int64) (*Dir, error) {
	d := New(parent, maxDisk)
	if err := d.make(); err != nil {
		return nil, err
	}
	return d, nil
}

// New is Open that makes the directory only when the first file is
// written: a search that fits in memory leaves no trace.
func New(parent string, maxDisk int64) *Dir {
	if parent == "" {
		parent = os.TempDir()
	}
	return &Dir{parent: parent, maxDisk: maxDisk}
}

// make creates the directory unless it exists; d.mu must not be held.
func (d *Dir) make() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.path != "" {
		return nil
	}
	p, err := os.MkdirTemp(d.parent, "stateproof-spill-")
	if err != nil {
		return fmt.Errorf("spill directory: %w", err)
	}
	d.path = p
	return nil
}

// Path is the directory's path ("" while New's directory is not made).
func (d *Dir) Path() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.path
}

// Close closes every file and removes the directory.
func (d *Dir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, f := range d.files {
		f.Close()
	}
	d.files = nil
	if d.path == "" {
		return nil
	}
	return os.RemoveAll(d.path)
}

// Used is the bytes the directory's files hold now; Peak the most they
// ever held.
func (d *Dir) Used() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.used
}

// Peak is the most bytes the directory's files ever held.
func (d *Dir) Peak() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.peak
}

// reserve accounts n more bytes (negative: freed), refusing what would
// pass the budget.
func (d *Dir) reserve(n int64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n > 0 && d.maxDisk > 0 && d.used+n > d.maxDisk {
		return ErrDiskBudget
	}
	d.used += n
	d.peak = max(d.peak, d.used)
	return nil
}

// create opens a new file in the directory.
func (d *Dir) create(kind string) (*os.File, error) {
	if err := d.make(); err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.seq++
	name := filepath.Join(d.path, fmt.Sprintf("%s-%d", kind, d.seq))
	d.mu.Unlock()
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("spill file: %w", err)
	}
	d.mu.Lock()
	d.files = append(d.files, f)
	d.mu.Unlock()
	return f, nil
}

// remove closes and deletes a file, giving its bytes back to the budget.
func (d *Dir) remove(f *os.File, size int64) {
	d.mu.Lock()
	for i, g := range d.files {
		if g == f {
			d.files = append(d.files[:i], d.files[i+1:]...)
			break
		}
	}
	d.mu.Unlock()
	f.Close()
	os.Remove(f.Name())
	d.reserve(-size)
}

// Blocks is a file of fixed-size blocks written once each, at any block
// index, and read back whole: the node words or parent links of a search,
// a chunk of them per block.
type Blocks struct {
	d    *Dir
	f    *os.File
	size int // bytes per block
	have []bool
}

// NewBlocks creates a block file of blocks of size bytes.
func (d *Dir) NewBlocks(kind string, size int) (*Blocks, error) {
	f, err := d.create(kind)
	if err != nil {
		return nil, err
	}
	return &Blocks{d: d, f: f, size: size}, nil
}

// Write stores block k; each block is written once.
func (b *Blocks) Write(k int, data []byte) error {
	if len(data) != b.size {
		return fmt.Errorf("spill: block of %d bytes, want %d", len(data), b.size)
	}
	if err := b.d.reserve(int64(b.size)); err != nil {
		return err
	}
	if _, err := b.f.WriteAt(data, int64(k)*int64(b.size)); err != nil {
		return fmt.Errorf("spill: writing %s: %w", b.f.Name(), err)
	}
	for len(b.have) <= k {
		b.have = append(b.have, false)
	}
	b.have[k] = true
	return nil
}

// Read fills data with block k, which must have been written.
func (b *Blocks) Read(k int, data []byte) error {
	if k >= len(b.have) || !b.have[k] {
		return fmt.Errorf("spill: block %d of %s was never written", k, b.f.Name())
	}
	if _, err := b.f.ReadAt(data, int64(k)*int64(b.size)); err != nil {
		return fmt.Errorf("spill: reading %s: %w", b.f.Name(), err)
	}
	return nil
}
