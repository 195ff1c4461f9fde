package expr

// An IntProgram is an expression compiled to run on int64 words: every
// identifier is an Int variable held in a word, and every operation is
// one of Eval's on Ints inside int64 and Bools (a Bool is the word 0 or
// 1). A search over states stored as words runs its guards and
// assignments this way without building a Value. Where Eval would leave
// int64, divide by zero or raise, Run reports false instead of an answer,
// and the caller evaluates with Eval, which gives the value or the error.
type IntProgram struct{ root *inode }

type ikind uint8

const (
	iLit ikind = iota
	iSlot
	iUnary
	iBinary
)

type inode struct {
	kind ikind
	op   Op
	val  int64 // iLit
	slot int   // iSlot
	x, y *inode
}

// CompileInts compiles e for words; slot resolves an identifier to the
// index of an Int variable's word. ok is false when e has a node
// outside the operations above (a float, a call, /, **, shifts, a
// conditional, an identifier slot does not resolve, an operand of the
// wrong type); isBool says whether e's value is a Bool.
func CompileInts(e Expr, slot func(name string) (int, bool)) (p *IntProgram, isBool, ok bool) {
	n, isBool, ok := compileInt(e, slot)
	if !ok {
		return nil, false, false
	}
	return &IntProgram{root: n}, isBool, true
}

func compileInt(e Expr, slot func(string) (int, bool)) (n *inode, isBool, ok bool) {
	switch e := e.(type) {
	case *IntLit:
		return &inode{kind: iLit, val: e.Value}, false, e.Big == nil
	case *BoolLit:
		v := int64(0)
		if e.Value {
			v = 1
		}
		return &inode{kind: iLit, val: v}, true, true
	case *Ident:
		i, ok := slot(e.Name)
		return &inode{kind: iSlot, slot: i}, false, ok
	case *Unary:
		x, xb, ok := compileInt(e.X, slot)
		if !ok || (e.Op == Not) != xb || e.Op != Not && e.Op != Neg && e.Op != Plus {
			return nil, false, false
		}
		return &inode{kind: iUnary, op: e.Op, x: x}, xb, true
	case *Binary:
		x, xb, ok1 := compileInt(e.X, slot)
		y, yb, ok2 := compileInt(e.Y, slot)
		if !ok1 || !ok2 || xb != yb {
			return nil, false, false
		}
		n := &inode{kind: iBinary, op: e.Op, x: x, y: y}
		switch e.Op {
		case Add, Sub, Mul, Mod, BitAnd, BitOr, BitXor:
			return n, false, !xb
		case Lt, Le, Gt, Ge:
			return n, true, !xb
		case Eq, Ne:
			return n, true, true
		case Land, Lor, Lxor, Implies, Iff:
			return n, true, xb
		}
	}
	return nil, false, false
}

// Run evaluates p on words: ok is false when Eval must be asked.
func (p *IntProgram) Run(words []int64) (v int64, ok bool) {
	return p.root.run(words)
}

func (n *inode) run(w []int64) (int64, bool) {
	switch n.kind {
	case iLit:
		return n.val, true
	case iSlot:
		return w[n.slot], true
	case iUnary:
		x, ok := n.x.run(w)
		switch {
		case !ok:
			return 0, false
		case n.op == Not:
			return 1 - x, true
		case n.op == Neg:
			return -x, x != -1<<63
		}
		return x, true
	}
	x, ok := n.x.operand(w)
	if !ok {
		return 0, false
	}
	switch n.op {
	case Land, Lor, Implies:
		// Eval's short circuit: && stops at false, || at true, => at a
		// false premise.
		if n.op == Land && x == 0 || n.op == Lor && x == 1 || n.op == Implies && x == 0 {
			return b2w(n.op != Land), true
		}
		return n.y.run(w)
	}
	y, ok := n.y.operand(w)
	if !ok {
		return 0, false
	}
	switch n.op {
	case Add:
		s := x + y
		return s, (x^s)&(y^s) >= 0 // int64Arith's overflow test
	case Sub:
		d := x - y
		return d, (x^y)&(x^d) >= 0
	case Eq, Ne:
		return b2w((x == y) == (n.op == Eq)), true
	case Lt, Le, Gt, Ge:
		return b2w(compareHolds(n.op, cmpInt(x, y))), true
	case Lxor, Iff:
		return b2w((x != y) == (n.op == Lxor)), true
	}
	r, cause, ok := int64Arith(n.op, x, y)
	if !ok || cause != 0 || r.t != Int {
		return 0, false
	}
	return r.i, true
}

// operand is run with a leaf inline: most operands are variables and
// literals.
func (n *inode) operand(w []int64) (int64, bool) {
	switch n.kind {
	case iLit:
		return n.val, true
	case iSlot:
		return w[n.slot], true
	}
	return n.run(w)
}

func b2w(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
