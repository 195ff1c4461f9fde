package z3

// Term is a Z3 expression (a formula or an arithmetic term) owned by a
// Context. Terms are immutable; the same term may appear in many others.
type Term struct {
	ctx *Context
	ast z3_ast
}

// raw checks that every term is a usable term of c and returns the Z3
// pointers. It must be called after begin, never before.
func (c *Context) raw(op string, ts []*Term) ([]z3_ast, error) {
	out := make([]z3_ast, len(ts))
	for i, t := range ts {
		if t == nil {
			return nil, argError(op, "argument %d is nil", i+1)
		}
		if t.ctx != c {
			return nil, argError(op, "argument %d belongs to a different Context", i+1)
		}
		out[i] = t.ast
	}
	return out, nil
}

// prepare combines begin and raw.
func (c *Context) prepare(op string, ts ...*Term) ([]z3_ast, error) {
	if err := c.begin(op); err != nil {
		return nil, err
	}
	return c.raw(op, ts)
}

// ptr returns the address of the first element, or nil for an empty slice.
func ptr(as []z3_ast) *z3_ast {
	if len(as) == 0 {
		return nil
	}
	return &as[0]
}

// Const returns the constant (free variable) with the given name and sort.
// Z3 identifies constants by name and sort: asking twice gives the same term.
func (c *Context) Const(name string, s *Sort) (*Term, error) {
	const op = "Const"
	if err := c.begin(op); err != nil {
		return nil, err
	}
	if s == nil || s.ctx != c {
		return nil, argError(op, "sort is nil or belongs to a different Context")
	}
	return c.result(op, z3_mk_const(c.z, c.symbol(name), s.s))
}

// BoolConst returns the Boolean constant with the given name.
func (c *Context) BoolConst(name string) (*Term, error) { return c.Const(name, c.BoolSort()) }

// IntConst returns the integer constant with the given name.
func (c *Context) IntConst(name string) (*Term, error) { return c.Const(name, c.IntSort()) }

// RealConst returns the real constant with the given name.
func (c *Context) RealConst(name string) (*Term, error) { return c.Const(name, c.RealSort()) }

// True returns the Boolean constant true.
func (c *Context) True() (*Term, error) {
	if err := c.begin("True"); err != nil {
		return nil, err
	}
	return c.result("True", z3_mk_true(c.z))
}

// False returns the Boolean constant false.
func (c *Context) False() (*Term, error) {
	if err := c.begin("False"); err != nil {
		return nil, err
	}
	return c.result("False", z3_mk_false(c.z))
}

// BoolVal returns true or false.
func (c *Context) BoolVal(b bool) (*Term, error) {
	if b {
		return c.True()
	}
	return c.False()
}

// unary builds f(a).
func (c *Context) unary(op string, f func(z3_context, z3_ast) z3_ast, a *Term) (*Term, error) {
	as, err := c.prepare(op, a)
	if err != nil {
		return nil, err
	}
	return c.result(op, f(c.z, as[0]))
}

// binary builds f(a, b).
func (c *Context) binary(op string, f func(z3_context, z3_ast, z3_ast) z3_ast, a, b *Term) (*Term, error) {
	as, err := c.prepare(op, a, b)
	if err != nil {
		return nil, err
	}
	return c.result(op, f(c.z, as[0], as[1]))
}

// nary builds f(ts...), requiring at least min arguments.
func (c *Context) nary(op string, f func(z3_context, uint32, *z3_ast) z3_ast, min int, ts []*Term) (*Term, error) {
	as, err := c.prepare(op, ts...)
	if err != nil {
		return nil, err
	}
	if len(as) < min {
		return nil, argError(op, "needs at least %d arguments, got %d", min, len(as))
	}
	return c.result(op, f(c.z, uint32(len(as)), ptr(as)))
}

// Not returns ¬a.
func (c *Context) Not(a *Term) (*Term, error) {
	return c.unary("Not", func(z z3_context, x z3_ast) z3_ast { return z3_mk_not(z, x) }, a)
}

// And returns the conjunction of ts; And() is true.
func (c *Context) And(ts ...*Term) (*Term, error) {
	if len(ts) == 0 {
		return c.True()
	}
	return c.nary("And", func(z z3_context, n uint32, p *z3_ast) z3_ast { return z3_mk_and(z, n, p) }, 1, ts)
}

// Or returns the disjunction of ts; Or() is false.
func (c *Context) Or(ts ...*Term) (*Term, error) {
	if len(ts) == 0 {
		return c.False()
	}
	return c.nary("Or", func(z z3_context, n uint32, p *z3_ast) z3_ast { return z3_mk_or(z, n, p) }, 1, ts)
}

// Implies returns a ⇒ b.
func (c *Context) Implies(a, b *Term) (*Term, error) {
	return c.binary("Implies", func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_implies(z, x, y) }, a, b)
}

// Xor returns a ⊕ b.
func (c *Context) Xor(a, b *Term) (*Term, error) {
	return c.binary("Xor", func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_xor(z, x, y) }, a, b)
}

// Iff returns a ⇔ b (Boolean equality; it inspects as DeclEq).
func (c *Context) Iff(a, b *Term) (*Term, error) {
	return c.binary("Iff", func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_iff(z, x, y) }, a, b)
}

// Ite returns if cond then a else b; a and b must have the same sort.
func (c *Context) Ite(cond, a, b *Term) (*Term, error) {
	const op = "Ite"
	as, err := c.prepare(op, cond, a, b)
	if err != nil {
		return nil, err
	}
	if err := c.sameSort(op, as[1:]); err != nil {
		return nil, err
	}
	return c.result(op, z3_mk_ite(c.z, as[0], as[1], as[2]))
}

// Eq returns a = b; a and b must have the same sort (no Int/Real coercion).
func (c *Context) Eq(a, b *Term) (*Term, error) {
	const op = "Eq"
	as, err := c.prepare(op, a, b)
	if err != nil {
		return nil, err
	}
	if err := c.sameSort(op, as); err != nil {
		return nil, err
	}
	return c.result(op, z3_mk_eq(c.z, as[0], as[1]))
}

// Distinct returns "the arguments are pairwise different"; all must have
// the same sort. Distinct of a single term is true.
func (c *Context) Distinct(ts ...*Term) (*Term, error) {
	const op = "Distinct"
	as, err := c.prepare(op, ts...)
	if err != nil {
		return nil, err
	}
	if len(as) == 0 {
		return nil, argError(op, "needs at least 1 argument")
	}
	if len(as) == 1 {
		return c.result(op, z3_mk_true(c.z))
	}
	if err := c.sameSort(op, as); err != nil {
		return nil, err
	}
	return c.result(op, z3_mk_distinct(c.z, uint32(len(as)), ptr(as)))
}

// AtMost returns the cardinality constraint "at most k of ts are true".
func (c *Context) AtMost(k uint, ts ...*Term) (*Term, error) {
	return c.cardinality("AtMost", k, ts, func(z z3_context, n uint32, p *z3_ast, k uint32) z3_ast {
		return z3_mk_atmost(z, n, p, k)
	})
}

// AtLeast returns the cardinality constraint "at least k of ts are true".
func (c *Context) AtLeast(k uint, ts ...*Term) (*Term, error) {
	return c.cardinality("AtLeast", k, ts, func(z z3_context, n uint32, p *z3_ast, k uint32) z3_ast {
		return z3_mk_atleast(z, n, p, k)
	})
}

func (c *Context) cardinality(op string, k uint, ts []*Term, f func(z3_context, uint32, *z3_ast, uint32) z3_ast) (*Term, error) {
	as, err := c.prepare(op, ts...)
	if err != nil {
		return nil, err
	}
	if len(as) == 0 {
		return nil, argError(op, "needs at least 1 argument")
	}
	if k > 1<<31 {
		return nil, argError(op, "bound %d is too large", k)
	}
	for i, a := range as {
		if c.rawSortKind(a) != SortBool {
			return nil, sortError(op, "argument %d is not Bool", i+1)
		}
	}
	return c.result(op, f(c.z, uint32(len(as)), ptr(as), uint32(k)))
}

// rawSortKind returns the kind of the sort of a.
func (c *Context) rawSortKind(a z3_ast) SortKind {
	return sortKindOf(z3_get_sort_kind(c.z, z3_get_sort(c.z, a)))
}

// sameSort checks that all terms have one sort. Z3 hash-conses sorts, so
// equal sorts are equal pointers.
func (c *Context) sameSort(op string, as []z3_ast) error {
	if len(as) == 0 {
		return nil
	}
	first := z3_get_sort(c.z, as[0])
	for i := 1; i < len(as); i++ {
		if s := z3_get_sort(c.z, as[i]); s != first {
			// Z3 reuses one buffer for returned strings: copy each at once.
			got := z3_sort_to_string(c.z, s)
			want := z3_sort_to_string(c.z, first)
			return sortError(op, "argument %d has sort %s, argument 1 has sort %s", i+1, got, want)
		}
	}
	return nil
}
