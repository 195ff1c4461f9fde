package z3

// SortKind classifies a Sort.
type SortKind int

// Sort kinds. The binding builds only Bool, Int and Real terms; the other
// kinds can appear in parsed input.
const (
	SortUnknown SortKind = iota
	SortBool
	SortInt
	SortReal
	SortUninterpreted
	SortBitVec
	SortArray
	SortDatatype
	SortOther
)

func (k SortKind) String() string {
	switch k {
	case SortBool:
		return "Bool"
	case SortInt:
		return "Int"
	case SortReal:
		return "Real"
	case SortUninterpreted:
		return "Uninterpreted"
	case SortBitVec:
		return "BitVec"
	case SortArray:
		return "Array"
	case SortDatatype:
		return "Datatype"
	case SortOther:
		return "Other"
	}
	return "Unknown"
}

// Sort is a Z3 sort (type) owned by a Context.
type Sort struct {
	ctx *Context
	s   z3_sort
}

// BoolSort returns the Boolean sort (nil for a nil Context).
func (c *Context) BoolSort() *Sort {
	if c == nil {
		return nil
	}
	return c.boolSort
}

// IntSort returns the sort of mathematical integers (nil for a nil Context).
func (c *Context) IntSort() *Sort {
	if c == nil {
		return nil
	}
	return c.intSort
}

// RealSort returns the sort of real numbers (nil for a nil Context).
func (c *Context) RealSort() *Sort {
	if c == nil {
		return nil
	}
	return c.realSort
}

// sortResult checks the error code of the call that produced s and wraps s,
// taking one reference.
func (c *Context) sortResult(op string, s z3_sort) (*Sort, error) {
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	if s == 0 {
		return nil, &Error{Op: op, Kind: ErrorException, Message: "Z3 returned no sort"}
	}
	a := z3_sort_to_ast(c.z, s)
	z3_inc_ref(c.z, a)
	w := &Sort{ctx: c, s: s}
	track(c, w, releaseAST, uintptr(a))
	return w, nil
}

// usable returns the sort's Context if the sort can be used, or nil.
func (s *Sort) usable() *Context {
	if s == nil || s.ctx == nil || s.ctx.closed {
		return nil
	}
	return s.ctx
}

// Kind reports the sort's kind (SortUnknown for a nil sort or closed Context).
func (s *Sort) Kind() SortKind {
	c := s.usable()
	if c == nil {
		return SortUnknown
	}
	return sortKindOf(z3_get_sort_kind(c.z, s.s))
}

// String renders the sort in SMT-LIB syntax, e.g. "Int".
func (s *Sort) String() string {
	c := s.usable()
	if c == nil {
		return "<invalid sort>"
	}
	return z3_sort_to_string(c.z, s.s)
}

func sortKindOf(k z3_sort_kind) SortKind {
	switch k {
	case z3_BOOL_SORT:
		return SortBool
	case z3_INT_SORT:
		return SortInt
	case z3_REAL_SORT:
		return SortReal
	case z3_UNINTERPRETED_SORT:
		return SortUninterpreted
	case z3_BV_SORT:
		return SortBitVec
	case z3_ARRAY_SORT:
		return SortArray
	case z3_DATATYPE_SORT:
		return SortDatatype
	case z3_UNKNOWN_SORT:
		return SortUnknown
	}
	return SortOther
}
