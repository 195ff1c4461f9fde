// Package concrete is the concrete-machine seam: what a model format hands
// the explicit engines (explore and the searches built on it) so that they
// can enumerate its states without knowing the format.
//
// It lives beside package frontend rather than in it because frontend
// reaches the symbolic engines (bmc, z3), and the explicit engines must
// not (docs/architecture.md, "The invariants that keep the engines
// honest"): this package imports nothing.
package concrete

import "math"

// A Machine is a model's concrete step function over states written as
// words (int64). A format packs its runtime state into words however it
// likes; engines copy, hash and compare the words and never interpret
// them, except word 0, the location, which reports group states by.
//
// A Machine must be safe for concurrent calls with distinct Buffers:
// parallel searches step several states at once.
type Machine interface {
	// Width is the number of words of a state.
	Width() int
	// Ranges gives, per word (Width entries), the values the word can
	// hold, so that a store can pack states: word 0, the location, must
	// lie in [0, 2^31); a word whose range is [0, 1] is stored as a bit;
	// Unbounded says nothing is known.
	Ranges() []Range
	// Initial writes the initial state into dst (length Width) and
	// returns it.
	Initial(dst []int64) []int64
	// Successors returns the steps out of state src: every input the
	// format tries, in a fixed order, and per input its outcomes with
	// identical successors merged (the first kept). The outcomes alias
	// buf and are valid until buf's next use.
	Successors(src []int64, buf *Buffer) []Outcome
	// Fired is Successors without the merging: one outcome per step that
	// fires, so that two steps reaching the same state both appear (a
	// graph whose edges carry costs or weights needs both).
	Fired(src []int64, buf *Buffer) []Outcome
	// Describe renders a step label for paths: the location it leaves,
	// the input that triggers it and the location it enters.
	Describe(label int) (from, input, to string)
}

// Range is the closed interval of values a word can hold.
type Range struct{ Min, Max int64 }

// Unbounded is the range of a word about which nothing is known.
var Unbounded = Range{math.MinInt64, math.MaxInt64}

// Bit is the range of a word that holds 0 or 1.
var Bit = Range{0, 1}

// Outcome is one step out of a state.
type Outcome struct {
	// Label names the step (for JSON models the model transition); it is
	// what paths record and Describe renders, and it fits in 31 bits.
	Label int
	// Next is the successor state (Width words, aliasing a Buffer).
	Next []int64
	// Changed lists the words other than word 0 that the step may have
	// changed; every other word of Next equals the source's. It lets a
	// store repack only those words.
	Changed []int
}

// Buffer holds the outcome storage a Machine reuses between calls, so
// that a step allocates nothing once the buffer has grown.
type Buffer struct {
	words []int64
	out   []Outcome
}

// Reset empties the buffer.
func (b *Buffer) Reset() { b.out = b.out[:0] }

// Outcomes returns the outcomes kept since the last Reset.
func (b *Buffer) Outcomes() []Outcome { return b.out }

// Next returns room for the words (w of them) of the outcome after the
// kept ones; Keep adds it, and a Next without Keep leaves the outcome
// out. Growing the storage moves the kept outcomes' words and re-points
// their Next, so every outcome of one buffer must have the same width.
func (b *Buffer) Next(w int) []int64 {
	k := len(b.out)
	if need := (k + 1) * w; len(b.words) < need {
		grown := make([]int64, 2*need)
		copy(grown, b.words)
		b.words = grown
		for i := range b.out {
			b.out[i].Next = grown[i*w : (i+1)*w]
		}
	}
	return b.words[k*w : (k+1)*w]
}

// Keep adds next, the words the last Next returned, as an outcome.
func (b *Buffer) Keep(label int, next []int64, changed []int) {
	b.out = append(b.out, Outcome{Label: label, Next: next, Changed: changed})
}
