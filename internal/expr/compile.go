package expr

// A Program is an expression compiled against variable slots: the
// identifiers it resolves to slots are read from a slice by index instead
// of being looked up by name, which is what a search evaluating the same
// guards millions of times spends its time on otherwise. Running it gives
// Eval's value and errors: the operations are Eval's own, and every node
// the compiler does not specialise is handed to Eval.
type Program struct{ root *pnode }

type pkind uint8

const (
	pEval   pkind = iota // any other node: Eval on e
	pLit                 // a literal or constant: val
	pSlot                // an identifier resolved to a slot
	pUnary               // x, then unaryOp
	pBinary              // x, y, then Eval's binary rules
	pFunc                // x, then evalFunc
)

type pnode struct {
	e    Expr // the source node, which errors locate
	kind pkind
	slot int
	val  Value
	x, y *pnode
}

// Compile compiles e. slot resolves an identifier to its index in the
// values Run reads, or reports false to leave it to the Valuation.
func Compile(e Expr, slot func(name string) (int, bool)) *Program {
	return &Program{root: compile(e, slot)}
}

func compile(e Expr, slot func(string) (int, bool)) *pnode {
	p := &pnode{e: e}
	switch n := e.(type) {
	case *IntLit:
		p.kind, p.val = pLit, IntVal(n.Value)
		if n.Big != nil {
			p.val = BigIntVal(n.Big)
		}
	case *FloatLit:
		p.kind, p.val = pLit, RealVal(n.Value)
	case *BoolLit:
		p.kind, p.val = pLit, BoolVal(n.Value)
	case *Const:
		if f, ok := constValues[n.Name]; ok {
			p.kind, p.val = pLit, RealVal(f)
		}
	case *Ident:
		if i, ok := slot(n.Name); ok {
			p.kind, p.slot = pSlot, i
		}
	case *Unary:
		p.kind, p.x = pUnary, compile(n.X, slot)
	case *Binary:
		p.kind, p.x, p.y = pBinary, compile(n.X, slot), compile(n.Y, slot)
	case *FuncCall:
		p.kind, p.x = pFunc, compile(n.Arg, slot)
	}
	return p
}

// Run evaluates the program: a slot identifier is vals[slot], anything
// else comes from v. It equals Eval(e, v) when v gives every slot's name
// the value vals holds for it.
func (p *Program) Run(vals []Value, v Valuation) (Value, error) {
	return p.root.run(vals, v)
}

// leaf returns the value of a literal or slot node without a call (false
// for other nodes): most operands are variables and literals, and a call
// per leaf is most of the cost of "1 - x".
func (p *pnode) leaf(vals []Value) (Value, bool) {
	switch p.kind {
	case pLit:
		return p.val, true
	case pSlot:
		return vals[p.slot], true
	}
	return Value{}, false
}

// operand is run, with a leaf inline.
func (p *pnode) operand(vals []Value, v Valuation) (Value, error) {
	if x, ok := p.leaf(vals); ok {
		return x, nil
	}
	return p.run(vals, v)
}

func (p *pnode) run(vals []Value, v Valuation) (Value, error) {
	switch p.kind {
	case pLit:
		return p.val, nil
	case pSlot:
		return vals[p.slot], nil
	case pUnary:
		x, err := p.x.operand(vals, v)
		if err != nil {
			return Value{}, err
		}
		return unaryOp(p.e.(*Unary), x)
	case pBinary:
		n := p.e.(*Binary)
		x, ok := p.x.leaf(vals)
		if !ok {
			var err error
			if x, err = p.x.run(vals, v); err != nil {
				return Value{}, err
			}
		}
		if r, done, err := shortCircuit(n, x); done {
			return r, err
		}
		y, ok := p.y.leaf(vals)
		if !ok {
			var err error
			if y, err = p.y.run(vals, v); err != nil {
				return Value{}, err
			}
		}
		if x.IsInt64() && y.IsInt64() {
			if r, ok := int64Op(n.Op, x.i, y.i); ok {
				return r, nil
			}
		}
		return strictOrLogic(n, x, y)
	case pFunc:
		a, err := p.x.operand(vals, v)
		if err != nil {
			return Value{}, err
		}
		return evalFunc(p.e.(*FuncCall), a)
	}
	return Eval(p.e, v)
}

// int64Op is apply on two Ints inside int64 for the operations whose
// result is defined and stays inside int64 (ok false otherwise, and for
// the logical operators, which take Bools): the search's common case
// without apply's dispatch.
func int64Op(op Op, a, b int64) (Value, bool) {
	switch op {
	case Eq, Ne:
		return BoolVal((a == b) == (op == Eq)), true
	case Lt, Le, Gt, Ge:
		return BoolVal(compareHolds(op, cmpInt(a, b))), true
	case Add, Sub, Mul, Div, Mod, Pow, Shl, Shr, BitAnd, BitOr, BitXor:
		r, cause, ok := int64Arith(op, a, b)
		return r, ok && cause == 0
	}
	return Value{}, false
}
