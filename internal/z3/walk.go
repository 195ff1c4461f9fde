package z3

// TermKind is the shape of a term, for walking parsed formulas.
type TermKind int

// Term kinds.
const (
	KindUnknown    TermKind = iota
	KindApp                 // application of a declaration, including constants
	KindNumeral             // rational numeral (also an application of DeclNumeral)
	KindVar                 // de Bruijn variable bound by an enclosing quantifier
	KindQuantifier          // forall / exists
)

func (k TermKind) String() string {
	switch k {
	case KindApp:
		return "app"
	case KindNumeral:
		return "numeral"
	case KindVar:
		return "var"
	case KindQuantifier:
		return "quantifier"
	}
	return "unknown"
}

// Kind reports the term's shape (KindUnknown if the term is unusable).
func (t *Term) Kind() TermKind {
	c := t.usable()
	if c == nil {
		return KindUnknown
	}
	switch z3_get_ast_kind(c.z, t.ast) {
	case z3_APP_AST:
		return KindApp
	case z3_NUMERAL_AST:
		return KindNumeral
	case z3_VAR_AST:
		return KindVar
	case z3_QUANTIFIER_AST:
		return KindQuantifier
	}
	return KindUnknown
}

// app returns the term as a Z3 application, or an error if it is not one.
func (t *Term) app(op string) (*Context, z3_app, error) {
	c, err := t.begin(op)
	if err != nil {
		return nil, 0, err
	}
	if !bool(z3_is_app(c.z, t.ast)) {
		return nil, 0, argError(op, "term is a %s, not an application", t.Kind())
	}
	return c, z3_to_app(c.z, t.ast), nil
}

// DeclName returns the name of the applied declaration: the constant's or
// predicate's name for uninterpreted symbols, the operator ("and", "+",
// "<=") for interpreted ones.
func (t *Term) DeclName() (string, error) {
	c, a, err := t.app("Term.DeclName")
	if err != nil {
		return "", err
	}
	d := z3_get_app_decl(c.z, a)
	return c.symbolString(z3_get_decl_name(c.z, d)), nil
}

// DeclKind returns the kind of the applied declaration, or DeclOther when
// the term is not an application.
func (t *Term) DeclKind() DeclKind {
	c := t.usable()
	if c == nil || !bool(z3_is_app(c.z, t.ast)) {
		return DeclOther
	}
	d := z3_get_app_decl(c.z, z3_to_app(c.z, t.ast))
	return declKindOf(z3_get_decl_kind(c.z, d))
}

// NumArgs returns the number of arguments of an application (0 otherwise).
func (t *Term) NumArgs() int {
	c := t.usable()
	if c == nil || !bool(z3_is_app(c.z, t.ast)) {
		return 0
	}
	return int(z3_get_app_num_args(c.z, z3_to_app(c.z, t.ast)))
}

// Arg returns argument i (from 0) of an application.
func (t *Term) Arg(i int) (*Term, error) {
	const op = "Term.Arg"
	c, a, err := t.app(op)
	if err != nil {
		return nil, err
	}
	if n := int(z3_get_app_num_args(c.z, a)); i < 0 || i >= n {
		return nil, &Error{Op: op, Kind: ErrorIndex, Message: "argument index " + itoa(int64(i)) + " out of range [0, " + itoa(int64(n)) + ")"}
	}
	return c.result(op, z3_get_app_arg(c.z, a, uint32(i)))
}

// Args returns all arguments of an application (none for a constant).
func (t *Term) Args() ([]*Term, error) {
	const op = "Term.Args"
	c, a, err := t.app(op)
	if err != nil {
		return nil, err
	}
	n := int(z3_get_app_num_args(c.z, a))
	out := make([]*Term, n)
	for i := range out {
		if out[i], err = c.result(op, z3_get_app_arg(c.z, a, uint32(i))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// VarIndex returns the de Bruijn index of a bound variable: 0 refers to the
// innermost bound variable, i.e. the last one declared by the nearest
// enclosing quantifier (see Quantifier).
func (t *Term) VarIndex() (int, error) {
	const op = "Term.VarIndex"
	c, err := t.begin(op)
	if err != nil {
		return 0, err
	}
	if z3_get_ast_kind(c.z, t.ast) != z3_VAR_AST {
		return 0, argError(op, "term is a %s, not a bound variable", t.Kind())
	}
	return int(z3_get_index_value(c.z, t.ast)), nil
}

// Quantifier describes a quantified formula.
//
// Names[i] and Sorts[i] describe the bound variables in declaration order.
// In Body, the variable declared at position i appears as the de Bruijn
// variable with index len(Names)-1-i (ignoring quantifiers nested in Body,
// which shift the indices further).
type Quantifier struct {
	Forall bool // true for forall, false for exists
	Names  []string
	Sorts  []*Sort
	Body   *Term
}

// Quantifier returns the parts of a quantified formula.
func (t *Term) Quantifier() (*Quantifier, error) {
	const op = "Term.Quantifier"
	c, err := t.begin(op)
	if err != nil {
		return nil, err
	}
	if z3_get_ast_kind(c.z, t.ast) != z3_QUANTIFIER_AST {
		return nil, argError(op, "term is a %s, not a quantifier", t.Kind())
	}
	n := int(z3_get_quantifier_num_bound(c.z, t.ast))
	q := &Quantifier{
		Forall: bool(z3_is_quantifier_forall(c.z, t.ast)),
		Names:  make([]string, n),
		Sorts:  make([]*Sort, n),
	}
	for i := 0; i < n; i++ {
		q.Names[i] = c.symbolString(z3_get_quantifier_bound_name(c.z, t.ast, uint32(i)))
		if q.Sorts[i], err = c.sortResult(op, z3_get_quantifier_bound_sort(c.z, t.ast, uint32(i))); err != nil {
			return nil, err
		}
	}
	if q.Body, err = c.result(op, z3_get_quantifier_body(c.z, t.ast)); err != nil {
		return nil, err
	}
	return q, nil
}
