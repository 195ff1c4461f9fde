package z3

// Model is an assignment that satisfied a Sat check, owned by a Context.
// It stays valid after the solver moves on.
type Model struct {
	ctx *Context
	m   z3_model
}

func (c *Context) newModel(m z3_model) *Model {
	z3_model_inc_ref(c.z, m)
	w := &Model{ctx: c, m: m}
	track(c, w, releaseModel, uintptr(m))
	return w
}

// Eval evaluates t in the model. With completion, constants the model left
// unconstrained get a default value (0, false) so the result is a value;
// without it they stay symbolic. Read the value with Term.Bool, Term.Int64,
// Term.NumeralString, Term.Rat or Term.DecimalString.
func (m *Model) Eval(t *Term, completion bool) (*Term, error) {
	const op = "Model.Eval"
	if m == nil || m.ctx == nil {
		return nil, argError(op, "nil Model")
	}
	c := m.ctx
	as, err := c.prepare(op, t)
	if err != nil {
		return nil, err
	}
	var out z3_ast
	ok := bool(z3_model_eval(c.z, m.m, as[0], bool(completion), &out))
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	if !ok || out == 0 {
		return nil, &Error{Op: op, Kind: ErrorException, Message: "evaluation failed for " + t.String()}
	}
	return c.newTerm(out), nil
}

// String renders the model's assignments.
func (m *Model) String() string {
	if m == nil || m.ctx == nil {
		return "<invalid model>"
	}
	c := m.ctx
	if err := c.begin("Model.String"); err != nil {
		return "<invalid model>"
	}
	return z3_model_to_string(c.z, m.m)
}
