package ltl

// nf is a formula in negation normal form, interned in a table so that
// equal subformulas share one id: the tableau keeps sets of ids.
type nf struct {
	op   Op // OpTrue, OpFalse, OpAtom, OpAnd, OpOr, OpNext, OpUntil, OpRelease
	l, r int
	atom int  // OpAtom: index into the table's atoms
	neg  bool // OpAtom: the literal is negated
}

type table struct {
	nodes []nf
	index map[nf]int
	atoms []Atom
	atomI map[Atom]int
}

func newTable() *table { return &table{index: map[nf]int{}, atomI: map[Atom]int{}} }

func (t *table) intern(n nf) int {
	if i, ok := t.index[n]; ok {
		return i
	}
	t.nodes = append(t.nodes, n)
	t.index[n] = len(t.nodes) - 1
	return len(t.nodes) - 1
}

func (t *table) atom(a *Atom, neg bool) int {
	i, ok := t.atomI[*a]
	if !ok {
		i = len(t.atoms)
		t.atoms = append(t.atoms, *a)
		t.atomI[*a] = i
	}
	return t.intern(nf{op: OpAtom, atom: i, neg: neg})
}

// nnf interns f, negated when neg, pushing negations to the atoms:
// G a = false R a, F a = true U a, a W b = b R (a || b), and the duals.
func (t *table) nnf(f *Formula, neg bool) int {
	bin := func(op Op, l, r int) int { return t.intern(nf{op: op, l: l, r: r}) }
	tt, ff := t.intern(nf{op: OpTrue}), t.intern(nf{op: OpFalse})
	switch f.Op {
	case OpTrue, OpFalse:
		if (f.Op == OpTrue) != neg {
			return tt
		}
		return ff
	case OpAtom:
		return t.atom(f.Atom, neg)
	case OpNot:
		return t.nnf(f.L, !neg)
	case OpAnd, OpOr:
		op := f.Op
		if neg {
			op = OpAnd + OpOr - op
		}
		return bin(op, t.nnf(f.L, neg), t.nnf(f.R, neg))
	case OpImplies: // a -> b = !a || b
		if neg {
			return bin(OpAnd, t.nnf(f.L, false), t.nnf(f.R, true))
		}
		return bin(OpOr, t.nnf(f.L, true), t.nnf(f.R, false))
	case OpIff: // (a && b) || (!a && !b); negated: (a && !b) || (!a && b)
		a, na := t.nnf(f.L, false), t.nnf(f.L, true)
		b, nb := t.nnf(f.R, false), t.nnf(f.R, true)
		if neg {
			return bin(OpOr, bin(OpAnd, a, nb), bin(OpAnd, na, b))
		}
		return bin(OpOr, bin(OpAnd, a, b), bin(OpAnd, na, nb))
	case OpNext:
		return t.intern(nf{op: OpNext, l: t.nnf(f.L, neg)})
	case OpGlobally: // G a = false R a; !G a = true U !a
		if neg {
			return bin(OpUntil, tt, t.nnf(f.L, true))
		}
		return bin(OpRelease, ff, t.nnf(f.L, false))
	case OpFinally:
		if neg {
			return bin(OpRelease, ff, t.nnf(f.L, true))
		}
		return bin(OpUntil, tt, t.nnf(f.L, false))
	case OpUntil: // !(a U b) = !a R !b
		if neg {
			return bin(OpRelease, t.nnf(f.L, true), t.nnf(f.R, true))
		}
		return bin(OpUntil, t.nnf(f.L, false), t.nnf(f.R, false))
	case OpRelease:
		if neg {
			return bin(OpUntil, t.nnf(f.L, true), t.nnf(f.R, true))
		}
		return bin(OpRelease, t.nnf(f.L, false), t.nnf(f.R, false))
	case OpWeakUntil: // a W b = b R (a || b); !(a W b) = !b U (!a && !b)
		if neg {
			nb := t.nnf(f.R, true)
			return bin(OpUntil, nb, bin(OpAnd, t.nnf(f.L, true), nb))
		}
		b := t.nnf(f.R, false)
		return bin(OpRelease, b, bin(OpOr, t.nnf(f.L, false), b))
	}
	panic("ltl: unknown operator")
}
