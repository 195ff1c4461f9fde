package runtime

import (
	"math/big"
	"strconv"
	"sync"

	"github.com/stateproof/stateproof/internal/trace"
)

// Integer words. Integer variables are mathematical integers, but a runtime
// stays one int64 word per variable: a word w with −2^62 ≤ w < 2^62 is the
// integer itself; any other word is a handle into the machine's table of
// big values. Handles keep the sign and the order against the band: a
// value ≥ 2^62 gets a handle ≥ 2^62 and a value < −2^62 one < −2^62. Model
// literals lie within ±(2^53−1), so comparing a word with a literal — every
// guard, range bound and boundary probe — is exact on the words themselves,
// and equal values always get equal words (the table interns them), so
// runtimes are still compared and hashed word by word.
const band = 1 << 62

// small reports whether w is an integer word rather than a handle: whether
// its top two bits agree, i.e. −2^62 ≤ w < 2^62.
func small(w int64) bool { return w^(w<<1) >= 0 }

// bigTable interns the values outside the band of one machine. It is
// guarded by a mutex because a Machine may be shared by concurrent
// searches (and by the workers of one); it is only touched on the slow
// path. One table per machine keeps handles canonical across goroutines:
// equal values get equal words whichever worker made them first. A
// handle's rank follows creation order, which parallel workers make
// timing-dependent, so nothing may depend on ranks: values are compared
// with literals by sign and band, and rendered through the table.
type bigTable struct {
	mu    sync.Mutex
	index map[string]int64 // value text → handle
	vals  []*big.Int       // handle rank → value
}

func handleOf(rank int64, negative bool) int64 {
	if negative {
		return -band - 1 - rank
	}
	return band + rank
}

func rankOf(w int64) int64 {
	if w < 0 {
		return -band - 1 - w
	}
	return w - band
}

// Word returns the word of integer x (which is not modified or kept).
func (mc *Machine) Word(x *big.Int) int64 {
	if x.IsInt64() && small(x.Int64()) {
		return x.Int64()
	}
	t := mc.ints
	key := string(x.Append(nil, 16))
	t.mu.Lock()
	defer t.mu.Unlock()
	if w, ok := t.index[key]; ok {
		return w
	}
	if t.index == nil {
		t.index = map[string]int64{}
	}
	w := handleOf(int64(len(t.vals)), x.Sign() < 0)
	t.vals = append(t.vals, new(big.Int).Set(x))
	t.index[key] = w
	return w
}

// IntWord returns the word of the int64 integer x.
func (mc *Machine) IntWord(x int64) int64 {
	if small(x) {
		return x
	}
	return mc.Word(big.NewInt(x))
}

// Int returns the integer word w stands for, as a new big.Int.
func (mc *Machine) Int(w int64) *big.Int {
	if small(w) {
		return big.NewInt(w)
	}
	return new(big.Int).Set(mc.bigOf(w))
}

// bigOf returns the stored value of handle w; callers must not modify it.
func (mc *Machine) bigOf(w int64) *big.Int {
	t := mc.ints
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.vals[rankOf(w)]
}

// IntValue returns the integer word w stands for as an int64 when it fits,
// else as a *big.Int: the form trace values and report evidence take.
func (mc *Machine) IntValue(w int64) any {
	if small(w) {
		return w
	}
	return trace.Integer(mc.Int(w))
}

// formatInt renders the integer of word w in decimal.
func (mc *Machine) formatInt(w int64) string {
	if small(w) {
		return strconv.FormatInt(w, 10)
	}
	return mc.bigOf(w).String()
}

// addBig returns the word of (the integer of w) + d, exactly: the slow path
// of an update, for a handle or a sum that leaves the band.
func (mc *Machine) addBig(w, d int64) int64 {
	s := mc.Int(w)
	return mc.Word(s.Add(s, big.NewInt(d)))
}
