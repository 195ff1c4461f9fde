package z3

// NewSolverForLogic creates Z3's combined solver specialised for an
// SMT-LIB logic, with "ctrl_c" false and params as NewSolver. With "HORN"
// Z3 4.8.12 runs its CHC engine (Spacer) on asserted, universally
// quantified Horn clauses: Sat then means the clauses have a solution and
// the model interprets every predicate (read it with Model.FuncElse).
func (c *Context) NewSolverForLogic(logic string, params ...Param) (*Solver, error) {
	const op = "NewSolverForLogic"
	return c.newSolver(op, func() z3_solver { return z3_mk_solver_for_logic(c.z, c.symbol(logic)) }, params)
}

// Interrupt asks a running check of s to stop; the check then returns
// Unknown. It is the one call that may be made from another goroutine
// while the owner is inside Check (Z3_solver_interrupt is meant for that):
// it touches no reference count and no Go-side state of the Context. The
// caller must ensure the Context is not closed concurrently.
func (s *Solver) Interrupt() {
	if s == nil || s.ctx == nil || s.ctx.z == 0 {
		return
	}
	z3_solver_interrupt(s.ctx.z, s.s)
}

// FuncElse returns the interpretation of the function or predicate called
// name in the model, as its "else" value: a term over de Bruijn variables
// in which variable i stands for argument i. It also returns the arity. A
// function the model interprets by a finite table (entries besides the
// else value) is an error, as is a name the model does not interpret.
func (m *Model) FuncElse(name string) (*Term, int, error) {
	const op = "Model.FuncElse"
	if m == nil || m.ctx == nil {
		return nil, 0, argError(op, "nil Model")
	}
	c := m.ctx
	if err := c.begin(op); err != nil {
		return nil, 0, err
	}
	n := int(z3_model_get_num_funcs(c.z, m.m))
	for i := 0; i < n; i++ {
		d := z3_model_get_func_decl(c.z, m.m, uint32(i))
		if c.symbolString(z3_get_decl_name(c.z, d)) != name {
			continue
		}
		arity := int(z3_get_arity(c.z, d))
		fi := z3_model_get_func_interp(c.z, m.m, d)
		if err := c.lastError(op); err != nil {
			return nil, 0, err
		}
		if fi == 0 {
			return nil, 0, &Error{Op: op, Kind: ErrorException, Message: "no interpretation of " + quote(name)}
		}
		z3_func_interp_inc_ref(c.z, fi)
		defer z3_func_interp_dec_ref(c.z, fi)
		if z3_func_interp_get_num_entries(c.z, fi) != 0 {
			return nil, 0, argError(op, "%s is interpreted by a table, not a formula", name)
		}
		t, err := c.result(op, z3_func_interp_get_else(c.z, fi))
		return t, arity, err
	}
	return nil, 0, argError(op, "the model does not interpret %s", name)
}

// SubstituteVars replaces the de Bruijn variable with index i by to[i] in
// t (the body of a quantifier, or a FuncElse interpretation).
func (t *Term) SubstituteVars(to ...*Term) (*Term, error) {
	const op = "Term.SubstituteVars"
	c, err := t.begin(op)
	if err != nil {
		return nil, err
	}
	as, err := c.raw(op, to)
	if err != nil {
		return nil, err
	}
	return c.result(op, z3_substitute_vars(c.z, t.ast, uint32(len(as)), ptr(as)))
}

// ConstInterp returns the model's value of the constant (or nullary
// predicate) called name, or nil when the model does not interpret it.
func (m *Model) ConstInterp(name string) (*Term, error) {
	const op = "Model.ConstInterp"
	if m == nil || m.ctx == nil {
		return nil, argError(op, "nil Model")
	}
	c := m.ctx
	if err := c.begin(op); err != nil {
		return nil, err
	}
	n := int(z3_model_get_num_consts(c.z, m.m))
	for i := 0; i < n; i++ {
		d := z3_model_get_const_decl(c.z, m.m, uint32(i))
		if c.symbolString(z3_get_decl_name(c.z, d)) != name {
			continue
		}
		return c.result(op, z3_model_get_const_interp(c.z, m.m, d))
	}
	return nil, nil
}
