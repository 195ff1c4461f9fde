package ltl

// Word is an ultimately periodic run: positions 0 … len-1, after which the
// run continues at position Loop (Loop < len). Position i is system node
// Nodes[i] entered by event Events[i] (-1: none, at the start and while
// stuttering in a dead end).
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
