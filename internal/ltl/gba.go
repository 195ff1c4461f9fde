package ltl

import (
	"encoding/binary"
	"errors"
	"slices"

	"github.com/stateproof/stateproof/internal/scc"
)

// set is a set of formula ids as a bit vector.
type set []uint64

func newSet(n int) set       { return make(set, (n+63)/64) }
func (s set) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s set) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s set) del(i int)      { s[i/64] &^= 1 << (i % 64) }
func (s set) clone() set     { return slices.Clone(s) }
func (s set) key() string {
	b := make([]byte, 0, 8*len(s))
	for _, x := range s {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return string(b)
}
func (s set) first() int {
	for w, x := range s {
		if x != 0 {
			for b := 0; b < 64; b++ {
				if x&(1<<b) != 0 {
					return w*64 + b
				}
			}
		}
	}
	return -1
}

// Automaton is a generalized Büchi automaton with labelled states: a run
// visits state q at a position only where q's literals hold there, starts
// in an Initial state, moves along Succ, and is accepting when it visits
// every acceptance set infinitely often.
type Automaton struct {
	Atoms   []Atom
	States  []AState
	Initial []int
	NAcc    int
}

// AState is one automaton state.
type AState struct {
	Pos, Neg []int // atoms that must hold, and must not, where it is visited
	Succ     []int
	Acc      uint64 // the acceptance sets it belongs to
}

// maxWork bounds the tableau's expansion steps.
const maxWork = 1 << 22

// ErrTooLarge means the formula's automaton passes the state cap or has
// more until subformulas than acceptance sets are counted in one word.
var ErrTooLarge = errors.New("formula automaton too large")

// tnode is a tableau node under construction (GPVW's Incoming, New, Old
// and Next).
type tnode struct {
	incoming     []int // -1 is the initial marker
	pending, old set
	next         set
}

// Translate builds the automaton of f (Gerth, Peled, Vardi, Wolper) with
// at most maxStates states.
func Translate(f *Formula, maxStates int) (*Automaton, error) {
	t := newTable()
	root := t.nnf(f, false)
	n := len(t.nodes)
	var done []*tnode
	byKey := map[string]int{} // (old, next) of each finished node
	start := &tnode{incoming: []int{-1}, pending: newSet(n), old: newSet(n), next: newSet(n)}
	start.pending.add(root)
	stack := []*tnode{start}
	// Splits can make the tableau's work exponential before it has many
	// states ((a || b) && (b || a) && …): the work is capped as well.
	for work := 0; len(stack) > 0; work++ {
		if work > maxWork {
			return nil, ErrTooLarge
		}
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		eta := nd.pending.first()
		if eta < 0 {
			key := nd.old.key() + "|" + nd.next.key()
			if i, ok := byKey[key]; ok {
				done[i].incoming = append(done[i].incoming, nd.incoming...)
				continue
			}
			if len(done) >= maxStates {
				return nil, ErrTooLarge
			}
			byKey[key] = len(done)
			done = append(done, nd)
			stack = append(stack, &tnode{incoming: []int{len(done) - 1}, pending: nd.next.clone(), old: newSet(n), next: newSet(n)})
			continue
		}
		nd.pending.del(eta)
		if nd.old.has(eta) {
			stack = append(stack, nd)
			continue
		}
		stack = t.expand(nd, eta, stack)
	}
	return t.automaton(done)
}

// expand processes formula eta of node nd and pushes what becomes of nd.
func (t *table) expand(nd *tnode, eta int, stack []*tnode) []*tnode {
	e := t.nodes[eta]
	addNew := func(x *tnode, ids ...int) {
		for _, i := range ids {
			if !x.old.has(i) {
				x.pending.add(i)
			}
		}
	}
	switch e.op {
	case OpFalse:
		return stack
	case OpAtom:
		if neg, ok := t.index[nf{op: OpAtom, atom: e.atom, neg: !e.neg}]; ok && nd.old.has(neg) {
			return stack
		}
		nd.old.add(eta)
	case OpTrue:
		nd.old.add(eta)
	case OpAnd:
		nd.old.add(eta)
		addNew(nd, e.l, e.r)
	case OpNext:
		nd.old.add(eta)
		nd.next.add(e.l)
	case OpOr, OpUntil, OpRelease:
		nd.old.add(eta)
		if e.op == OpOr && (nd.old.has(e.l) || nd.old.has(e.r)) { // already fulfilled: no split
			return append(stack, nd)
		}
		other := &tnode{incoming: slices.Clone(nd.incoming), pending: nd.pending.clone(), old: nd.old.clone(), next: nd.next.clone()}
		switch e.op {
		case OpOr:
			addNew(nd, e.l)
			addNew(other, e.r)
		case OpUntil: // a U b = b || (a && X(a U b))
			addNew(nd, e.l)
			nd.next.add(eta)
			addNew(other, e.r)
		case OpRelease: // a R b = (a && b) || (b && X(a R b))
			addNew(nd, e.l, e.r)
			addNew(other, e.r)
			other.next.add(eta)
		}
		stack = append(stack, other)
	}
	return append(stack, nd)
}

// automaton turns the finished tableau into an Automaton: one acceptance
// set per until subformula a U b, holding the states that either do not
// promise it or already fulfil b.
func (t *table) automaton(done []*tnode) (*Automaton, error) {
	var untils []int
	for i, x := range t.nodes {
		if x.op == OpUntil {
			untils = append(untils, i)
		}
	}
	if len(untils) > 64 {
		return nil, ErrTooLarge
	}
	a := &Automaton{Atoms: t.atoms, States: make([]AState, len(done)), NAcc: len(untils)}
	for i, d := range done {
		st := &a.States[i]
		for id, x := range t.nodes {
			if x.op == OpAtom && d.old.has(id) {
				if x.neg {
					st.Neg = append(st.Neg, x.atom)
				} else {
					st.Pos = append(st.Pos, x.atom)
				}
			}
		}
		for k, u := range untils {
			if !d.old.has(u) || d.old.has(t.nodes[u].r) {
				st.Acc |= 1 << uint(k)
			}
		}
		for _, from := range d.incoming {
			if from < 0 {
				a.Initial = append(a.Initial, i)
			} else {
				a.States[from].Succ = append(a.States[from].Succ, i)
			}
		}
	}
	for i := range a.States {
		slices.Sort(a.States[i].Succ)
		a.States[i].Succ = slices.Compact(a.States[i].Succ)
	}
	slices.Sort(a.Initial)
	a.Initial = slices.Compact(a.Initial)
	return a, nil
}

// Cyclic flags the states an accepting run can visit infinitely often:
// those of a strongly connected part of the automaton that has a cycle
// and whose states together belong to every acceptance set. A cycle of
// a product with a system projects onto a cycle of the automaton within
// one such part, so the product's other nodes lie on no accepting cycle
// and its cycle search need not visit them (docs/liveness.md#performance).
func (a *Automaton) Cyclic() []bool {
	off := make([]int, len(a.States)+1)
	var to []int32
	for q, st := range a.States {
		for _, r := range st.Succ {
			to = append(to, int32(r))
		}
		off[q+1] = len(to)
	}
	comp := scc.Numbers(off, to, nil)
	size := map[int32]int{}
	acc := map[int32]uint64{}
	loop := map[int32]bool{}
	for q, st := range a.States {
		c := comp[q]
		size[c]++
		acc[c] |= st.Acc
		for _, r := range st.Succ {
			loop[c] = loop[c] || r == q
		}
	}
	all := uint64(1)<<uint(a.NAcc) - 1
	cyclic := make([]bool, len(a.States))
	for q := range a.States {
		c := comp[q]
		cyclic[q] = (size[c] > 1 || loop[c]) && acc[c]&all == all
	}
	return cyclic
}
