package ltl

// Word is an ultimately periodic run: positions 0 … len-1, after which the
// run continues at position Loop (Loop < len). Position i is system node
// Nodes[i] entered by event Events[i] (-1: none, at the start and while
// stuttering in a dead end). The word of a bad prefix (Result.BadPrefix)
// is finite: Loop is len, and what follows is unknown.
type Word struct {
	Nodes, Events []int
	Loop          int
}

// Holds evaluates f at position 0 of w, atom(a, node, event) giving each
// atom's value. It is the textbook semantics computed position by position
// (least fixpoints for U, greatest for R, W and G), independent of the
// automaton, and confirms counterexamples before they are reported.
func Holds(f *Formula, w *Word, atom func(a *Atom, node, event int) bool) bool {
	return eval(f, w, atom)[0]
}

func eval(f *Formula, w *Word, atom func(a *Atom, node, event int) bool) []bool {
	n := len(w.Nodes)
	succ := func(i int) int {
		if i == n-1 {
			return w.Loop
		}
		return i + 1
	}
	out := make([]bool, n)
	switch f.Op {
	case OpTrue:
		for i := range out {
			out[i] = true
		}
	case OpFalse:
	case OpAtom:
		for i := range out {
			out[i] = atom(f.Atom, w.Nodes[i], w.Events[i])
		}
	case OpNot, OpNext, OpGlobally, OpFinally:
		l := eval(f.L, w, atom)
		switch f.Op {
		case OpNot:
			for i := range out {
				out[i] = !l[i]
			}
		case OpNext:
			for i := range out {
				out[i] = l[succ(i)]
			}
		case OpGlobally: // greatest: out = l && out∘succ
			fixpoint(out, true, func(i int) bool { return l[i] && out[succ(i)] })
		case OpFinally: // least: out = l || out∘succ
			fixpoint(out, false, func(i int) bool { return l[i] || out[succ(i)] })
		}
	default:
		l, r := eval(f.L, w, atom), eval(f.R, w, atom)
		var step func(i int) bool
		init := false
		switch f.Op {
		case OpAnd:
			step = func(i int) bool { return l[i] && r[i] }
		case OpOr:
			step = func(i int) bool { return l[i] || r[i] }
		case OpImplies:
			step = func(i int) bool { return !l[i] || r[i] }
		case OpIff:
			step = func(i int) bool { return l[i] == r[i] }
		case OpUntil:
			step = func(i int) bool { return r[i] || l[i] && out[succ(i)] }
		case OpRelease:
			init, step = true, func(i int) bool { return r[i] && (l[i] || out[succ(i)]) }
		case OpWeakUntil:
			init, step = true, func(i int) bool { return r[i] || l[i] && out[succ(i)] }
		}
		fixpoint(out, init, step)
	}
	return out
}

// fixpoint iterates out[i] = step(i) from init until nothing changes:
// passes from the last position down reach it in at most two rounds per
// position of the loop.
func fixpoint(out []bool, init bool, step func(int) bool) {
	for i := range out {
		out[i] = init
	}
	for changed := true; changed; {
		changed = false
		for i := len(out) - 1; i >= 0; i-- {
			if v := step(i); v != out[i] {
				out[i], changed = v, true
			}
		}
	}
}

// Three truth values of a formula on a finite prefix: a known value holds
// on every run that starts with the prefix.
const (
	no = iota
	yes
	unknown
)

// Violated reports whether f is false at position 0 of every run that
// starts with the positions of w (its loop is ignored): the textbook
// semantics unrolled backwards over the prefix in Kleene's three-valued
// logic, with nothing known past its end. It confirms a bad prefix before
// it is reported.
func Violated(f *Formula, w *Word, atom func(a *Atom, node, event int) bool) bool {
	return eval3(f, w, atom)[0] == no
}

func eval3(f *Formula, w *Word, atom func(a *Atom, node, event int) bool) []uint8 {
	n := len(w.Nodes)
	out := make([]uint8, n)
	switch f.Op {
	case OpTrue, OpFalse, OpAtom:
		for i := range out {
			out[i] = known(f.Op == OpTrue || f.Op == OpAtom && atom(f.Atom, w.Nodes[i], w.Events[i]))
		}
		return out
	case OpNot:
		for i, v := range eval3(f.L, w, atom) {
			out[i] = not3(v)
		}
		return out
	}
	l := eval3(f.L, w, atom)
	r := l
	if f.R != nil {
		r = eval3(f.R, w, atom)
	}
	next := uint8(unknown) // the value at the position after i
	for i := n - 1; i >= 0; i-- {
		switch f.Op {
		case OpAnd:
			out[i] = and3(l[i], r[i])
		case OpOr:
			out[i] = or3(l[i], r[i])
		case OpImplies:
			out[i] = or3(not3(l[i]), r[i])
		case OpIff:
			out[i] = or3(and3(l[i], r[i]), and3(not3(l[i]), not3(r[i])))
		case OpNext:
			out[i] = next
			next = l[i]
			continue
		case OpGlobally:
			out[i] = and3(l[i], next)
		case OpFinally:
			out[i] = or3(l[i], next)
		case OpUntil, OpWeakUntil:
			out[i] = or3(r[i], and3(l[i], next))
		case OpRelease:
			out[i] = and3(r[i], or3(l[i], next))
		}
		next = out[i]
	}
	return out
}

func known(b bool) uint8 {
	if b {
		return yes
	}
	return no
}

func not3(a uint8) uint8 {
	if a == unknown {
		return unknown
	}
	return 1 - a
}

func and3(a, b uint8) uint8 {
	switch {
	case a == no || b == no:
		return no
	case a == yes && b == yes:
		return yes
	}
	return unknown
}

func or3(a, b uint8) uint8 { return not3(and3(not3(a), not3(b))) }
