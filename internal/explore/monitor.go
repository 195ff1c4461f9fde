package explore

import (
	"math"
	"slices"

	"github.com/stateproof/stateproof/internal/spill"
)

// A Monitor rides on a search over runtimes: it follows one path property
// (an event seen, a sequence position, a tick count) as a value per node
// kept beside the node, not in its key, so the search stores each runtime
// once and still answers the property.
//
// That is exact while every path to a runtime gives it the same monitor
// value: the search over (runtime, value) pairs would then store the same
// nodes, in the same order, as the search over runtimes. The first edge
// that reaches a stored runtime with a different value is a conflict;
// everything the monitor reports before it (in search order) is what the
// pair search would have reported, and the caller decides anything past it
// with its own search.
type Monitor struct {
	// Init is the value of the root.
	Init int64
	// Done is the absorbing value: the property asks nothing more of a
	// node that holds it, so the pair search would not store the node,
	// and edges from it keep Done without calling Step.
	Done int64
	// Steady lists values that Step returns unchanged, with no flag, on
	// every edge: the property can no longer fail from them, but unlike
	// Done the pair search still stores their nodes. Edges from a node
	// holding one keep it without calling Step.
	Steady []int64
	// Small says every value lies in 0..254 or is Done, so one byte per
	// node holds it.
	Small bool
	// Step returns the value after transition t from node from (whose
	// value is m, not Done) to the runtime next, and flag >= 0 when the
	// edge is a finding with that key (a flagged edge's successor holds
	// Done). It runs concurrently for different edges, so it must only
	// read g, which it may do only for from and its ancestors.
	Step func(g *Graph, from, t int, next []int64, m int64) (value int64, flag int)
}

// rests reports whether edges from a node holding v keep v without
// calling Step: v is Done or steady.
func (m *Monitor) rests(v int64) bool { return v == m.Done || slices.Contains(m.Steady, v) }

// over advances value m over an edge, the edge-th from node from, by
// transition t into the runtime next: m itself when it rests, else what
// Step returns, or Done after a flag, which it returns as f with flagged
// set.
func (m *Monitor) over(g *Graph, from, edge, t int, next []int64, v int64) (int64, Flag, bool) {
	if m.rests(v) {
		return v, Flag{}, false
	}
	v, key := m.Step(g, from, t, next, v)
	if key < 0 {
		return v, Flag{}, false
	}
	return m.Done, Flag{Key: key, At: edgeKey(from, edge, false), From: from, Transition: t, Value: v}, true
}

// Key orders the events of a search: a source node, then its edges as
// generated (phase 0), then the same edges as interned (phase 1).
type Key uint64

// NoKey is later than every event.
const NoKey Key = math.MaxUint64

func edgeKey(from, edge int, interned bool) Key {
	k := Key(from)<<32 | Key(edge)
	if interned {
		k |= 1 << 31
	}
	return k
}

// Flag is an edge a monitor flagged: the first one in search order for its
// key.
type Flag struct {
	Key        int
	At         Key
	From       int   // the source node
	Transition int   // the model transition of the edge
	Value      int64 // the value Step returned with the flag
}

// MonitorResult is what one monitor saw in a search.
type MonitorResult struct {
	Flags []Flag // the first flag of each key, in search order
	// Conflict is where a stored runtime was first reached with another
	// value (NoKey: never).
	Conflict Key
	// Overflow is where the number of stored nodes not holding Done first
	// passed the search's cap (NoKey: never); Live is that number, at the
	// end or at Overflow.
	Overflow Key
	Live     int
	// Horizon is the last event the search saw when it stopped early (at
	// its cap or cancelled); NoKey when it ran to the end.
	Horizon Key
}

// Exact reports whether the monitor's view up to event k is what the
// search over (runtime, value) pairs would have seen.
func (r *MonitorResult) Exact(k Key) bool { return k < r.Conflict && k <= r.Horizon }

// Complete reports whether the monitor followed the whole search
// exactly: no conflict and no early stop.
func (r *MonitorResult) Complete() bool { return r.Conflict == NoKey && r.Horizon == NoKey }

func (r *MonitorResult) flag(f Flag) {
	for _, o := range r.Flags {
		if o.Key == f.Key {
			return
		}
	}
	r.Flags = append(r.Flags, f)
}

// column stores one monitor's value per node, chunked like the arena:
// a byte per node when the monitor is Small (255 standing for Done),
// else a word.
type column struct {
	small   chunks[uint8]
	wide    chunks[int64]
	isSmall bool
	done    int64
	bits    int // log2 of the nodes per chunk, as the graph's
}

func (c *column) add() {
	if c.isSmall {
		c.small.add()
	} else {
		c.wide.add()
	}
}

func (c *column) reserve(k int) {
	if c.isSmall {
		c.small.reserve(k)
	} else {
		c.wide.reserve(k)
	}
}

func (c *column) bytes() int {
	if c.isSmall {
		return 1
	}
	return 8
}

func (c *column) get(i int) int64 {
	if c.isSmall {
		v := c.small.chunk(i >> c.bits)[i&(1<<c.bits-1)]
		if v == 255 {
			return c.done
		}
		return int64(v)
	}
	return c.wide.chunk(i >> c.bits)[i&(1<<c.bits-1)]
}

func (c *column) set(i int, v int64) {
	if c.isSmall {
		if v == c.done {
			v = 255
		}
		c.small.chunk(i >> c.bits)[i&(1<<c.bits-1)] = uint8(v)
		return
	}
	c.wide.chunk(i >> c.bits)[i&(1<<c.bits-1)] = v
}

// fill sets the values of nodes lo up to hi-1 to v.
func (c *column) fill(lo, hi int, v int64) {
	if !c.isSmall {
		c.wide.fill(lo, hi, v)
		return
	}
	if v == c.done {
		v = 255
	}
	c.small.fill(lo, hi, uint8(v))
}

// evict writes chunk k to the column's disk (see onDisk) and drops it.
func (c *column) evict(k int) error {
	if c.isSmall {
		return c.small.evict(k)
	}
	return c.wide.evict(k)
}

// onDisk gives a spilling search's column a file for its evicted chunks.
func (c *column) onDisk(d *spill.Dir) (err error) {
	if c.isSmall {
		c.small.disk, err = newChunkDisk[uint8](d, "monitor", 1<<c.bits)
	} else {
		c.wide.disk, err = newChunkDisk[int64](d, "monitor", 1<<c.bits)
	}
	return err
}

// readErr is the first error reading an evicted chunk back, or nil.
func (c *column) readErr() error {
	if c.isSmall {
		return c.small.disk.readErr()
	}
	return c.wide.disk.readErr()
}

func newColumn(m Monitor, bits int) column {
	return column{small: newChunks[uint8](1 << bits), wide: newChunks[int64](1 << bits), isSmall: m.Small, done: m.Done, bits: bits}
}

// MonitorValue returns monitor k's value at node i.
func (g *Graph) MonitorValue(k, i int) int64 { return g.mon[k].get(i) }
