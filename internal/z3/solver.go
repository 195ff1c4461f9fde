package z3

import (
	"math"
	"sync"
	"time"
)

// Result is the answer of a satisfiability check.
type Result int

// Check results. Unknown is the zero value: a failed check is never
// mistaken for an answer.
const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Solver is an incremental Z3 solver (Z3_mk_solver: the default combined
// solver) owned by a Context.
type Solver struct {
	ctx *Context
	s   z3_solver

	timeout     time.Duration // installed "timeout"; 0 when none
	lastElapsed time.Duration // wall time of the last check
}

// NewSolver creates a solver on Z3's incremental SMT core
// (Z3_mk_simple_solver), with "ctrl_c" false so that checks leave the
// process's SIGINT handler alone (see the package documentation), and
// params set in order.
//
// Parameters given here cost less than SetParam afterwards: Z3 validates a
// solver's parameters against the descriptions of every parameter it knows
// (hundreds of names) each time they change on a built solver, so NewSolver
// hands them all over before Z3 builds it, and they are validated once.
func (c *Context) NewSolver(params ...Param) (*Solver, error) {
	const op = "NewSolver"
	return c.newSolver(op, func() z3_solver { return z3_mk_simple_solver(c.z) }, params)
}

// NewDefaultSolver creates Z3's default solver (Z3_mk_solver) with the
// defaults and params of NewSolver: a combined solver whose first check
// without push or assumptions runs a one-shot tactic, chosen by probing the
// formula, that preprocesses the whole formula (on large linear
// unrollings that wins more than the several milliseconds it costs to
// build); later checks run the incremental core. Non-linear integer
// problems should not be checked that way (see the package documentation).
func (c *Context) NewDefaultSolver(params ...Param) (*Solver, error) {
	const op = "NewDefaultSolver"
	return c.newSolver(op, func() z3_solver { return z3_mk_solver(c.z) }, params)
}

// Param is one solver parameter given at creation (see SetParam for the
// names and value types).
type Param struct {
	Name  string
	Value any
}

// newSolver makes a solver with mk, sets "ctrl_c" false and then params
// on it, and makes Z3 build it now, so that a wrong parameter name or value
// is an error of the creating call rather than of some later check (Z3
// creates a solver lazily and checks parameters only then).
func (c *Context) newSolver(op string, mk func() z3_solver, params []Param) (*Solver, error) {
	if err := c.begin(op); err != nil {
		return nil, err
	}
	raw := mk()
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	if raw == 0 {
		return nil, &Error{Op: op, Kind: ErrorException, Message: "Z3 returned no solver"}
	}
	params = append([]Param{{"ctrl_c", false}}, params...)
	z3_solver_inc_ref(c.z, raw)
	s := &Solver{ctx: c, s: raw}
	track(c, s, releaseSolver, uintptr(raw))
	if err := s.setParams(op, params); err != nil {
		return nil, err
	}
	z3_solver_get_num_scopes(c.z, s.s)
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	return s, nil
}

// begin is the Solver counterpart of Context.begin.
func (s *Solver) begin(op string) (*Context, error) {
	if s == nil || s.ctx == nil {
		return nil, argError(op, "nil Solver")
	}
	if err := s.ctx.begin(op); err != nil {
		return nil, err
	}
	return s.ctx, nil
}

// Assert adds the Boolean formula f to the solver's current scope.
func (s *Solver) Assert(f *Term) error {
	const op = "Solver.Assert"
	c, err := s.begin(op)
	if err != nil {
		return err
	}
	as, err := c.raw(op, []*Term{f})
	if err != nil {
		return err
	}
	if err := c.assertable(op, as[0]); err != nil {
		return err
	}
	z3_solver_assert(c.z, s.s, as[0])
	return c.lastError(op)
}

// AssertAndTrack adds f and tracks it with the Boolean constant p: if a
// later check is Unsat, UnsatCore contains p when f was needed.
func (s *Solver) AssertAndTrack(f, p *Term) error {
	const op = "Solver.AssertAndTrack"
	c, err := s.begin(op)
	if err != nil {
		return err
	}
	as, err := c.raw(op, []*Term{f, p})
	if err != nil {
		return err
	}
	if err := c.assertable(op, as[0]); err != nil {
		return err
	}
	if z3_get_ast_kind(c.z, as[1]) != z3_APP_AST || z3_get_app_num_args(c.z, z3_to_app(c.z, as[1])) != 0 ||
		c.rawSortKind(as[1]) != SortBool {
		return argError(op, "tracking literal must be a Boolean constant")
	}
	z3_solver_assert_and_track(c.z, s.s, as[0], as[1])
	return c.lastError(op)
}

// assertable rejects what Z3 must not receive as an assertion: non-Boolean
// terms and loose de Bruijn variables (taken from under a quantifier).
func (c *Context) assertable(op string, a z3_ast) error {
	if z3_get_ast_kind(c.z, a) == z3_VAR_AST {
		return argError(op, "a bound variable cannot be asserted")
	}
	if c.rawSortKind(a) != SortBool {
		return sortError(op, "formula is not Bool")
	}
	return nil
}

// Push opens a scope; Pop(n) discards the assertions of the last n scopes.
func (s *Solver) Push() error {
	c, err := s.begin("Solver.Push")
	if err != nil {
		return err
	}
	z3_solver_push(c.z, s.s)
	return c.lastError("Solver.Push")
}

// Pop closes the n innermost scopes; popping more scopes than are open is an
// error.
func (s *Solver) Pop(n uint) error {
	const op = "Solver.Pop"
	c, err := s.begin(op)
	if err != nil {
		return err
	}
	if open := uint(z3_solver_get_num_scopes(c.z, s.s)); n > open {
		return &Error{Op: op, Kind: ErrorIndex, Message: "cannot pop " + itoa(int64(n)) + " of " + itoa(int64(open)) + " scopes"}
	}
	z3_solver_pop(c.z, s.s, uint32(n))
	return c.lastError(op)
}

// NumScopes returns the number of open scopes (0 if the solver is unusable).
func (s *Solver) NumScopes() int {
	if s == nil || s.ctx == nil || s.ctx.closed {
		return 0
	}
	return int(z3_solver_get_num_scopes(s.ctx.z, s.s))
}

// Reset removes every assertion and scope. Parameters are kept.
func (s *Solver) Reset() error {
	const op = "Solver.Reset"
	c, err := s.begin(op)
	if err != nil {
		return err
	}
	z3_solver_reset(c.z, s.s)
	if err := c.lastError(op); err != nil {
		return err
	}
	z3_solver_get_num_scopes(c.z, s.s) // rebuild, see newSolver
	return c.lastError(op)
}

// Check decides the satisfiability of the current assertions. An Unknown
// result comes with a nil error; ReasonUnknown says why ("timeout" when the
// timeout parameter stopped the check).
func (s *Solver) Check() (Result, error) {
	return s.check("Solver.Check", nil)
}

// CheckAssumptions checks the assertions together with the assumptions
// (Boolean terms; typically activation literals, i.e. Boolean constants or
// their negations) without adding them to the solver. After Unsat,
// UnsatCore returns a subset of the assumptions (and tracking literals)
// that is already contradictory.
func (s *Solver) CheckAssumptions(assumptions ...*Term) (Result, error) {
	return s.check("Solver.CheckAssumptions", assumptions)
}

func (s *Solver) check(op string, assumptions []*Term) (Result, error) {
	c, as, err := s.prepareCheck(op, assumptions)
	if err != nil {
		return Unknown, err
	}
	var r z3_lbool
	start := time.Now()
	stop := s.watchdog()
	if len(as) == 0 {
		r = z3_solver_check(c.z, s.s)
	} else {
		r = z3_solver_check_assumptions(c.z, s.s, uint32(len(as)), ptr(as))
	}
	stop()
	s.lastElapsed = time.Since(start)
	return checkResult(c, op, r)
}

// prepareCheck is the start of every check: the solver's context, and the
// assumptions as Z3 terms, each a formula of that context.
func (s *Solver) prepareCheck(op string, assumptions []*Term) (*Context, []z3_ast, error) {
	c, err := s.begin(op)
	if err != nil {
		return nil, nil, err
	}
	as, err := c.raw(op, assumptions)
	if err != nil {
		return nil, nil, err
	}
	for i, a := range as {
		if err := c.assertable(op, a); err != nil {
			return nil, nil, argError(op, "assumption %d: %v", i+1, err)
		}
	}
	return c, as, nil
}

// checkResult reads a check's answer r, or the error it left in c.
func checkResult(c *Context, op string, r z3_lbool) (Result, error) {
	if err := c.lastError(op); err != nil {
		return Unknown, err
	}
	switch r {
	case z3_L_TRUE:
		return Sat, nil
	case z3_L_FALSE:
		return Unsat, nil
	}
	return Unknown, nil
}

// watchdog enforces an installed timeout from the Go side: Z3 4.8.12's own
// timer occasionally never fires (a non-linear check was seen running for
// minutes past a 200 ms timeout), so a check still running at twice its
// timeout plus 100 ms is interrupted, which Z3 honours as a cancellation
// (Unknown, reason "timeout" below). The returned function disarms it; the
// interrupt is only sent while the check is still running.
func (s *Solver) watchdog() (stop func()) {
	if s.timeout <= 0 {
		return func() {}
	}
	var mu sync.Mutex
	running := true
	t := time.AfterFunc(2*s.timeout+100*time.Millisecond, func() {
		mu.Lock()
		defer mu.Unlock()
		if running {
			s.Interrupt()
		}
	})
	return func() {
		mu.Lock()
		running = false
		mu.Unlock()
		t.Stop()
	}
}

// ReasonUnknown explains the last Unknown result, e.g. "timeout" or
// "(incomplete (theory arithmetic))". It is "" if the solver is unusable.
//
// A check stopped by the timeout parameter reads exactly "timeout". (Z3
// 4.8.12's incremental core reports such a stop as "canceled", as it does
// for an exhausted "rlimit"; since the binding interrupts a check only
// past its timeout,
// "canceled" after a check that ran at least as long as the installed
// timeout — whether Z3's timer or the binding's watchdog stopped it — is
// reported as "timeout".)
func (s *Solver) ReasonUnknown() string {
	c, err := s.begin("Solver.ReasonUnknown")
	if err != nil {
		return ""
	}
	r := z3_solver_get_reason_unknown(c.z, s.s)
	_ = c.lastError("Solver.ReasonUnknown")
	if r == "canceled" && s.timeout > 0 && s.lastElapsed >= s.timeout {
		return "timeout"
	}
	return r
}

// UnsatCore returns, after an Unsat check with assumptions or tracked
// assertions, the assumption and tracking literals of a contradictory
// subset. The subset is sufficient, not necessarily minimal. After a Sat or
// Unknown check it is empty. Match the returned terms to the caller's
// literals with Term.ID or Term.Equal.
func (s *Solver) UnsatCore() ([]*Term, error) {
	const op = "Solver.UnsatCore"
	c, err := s.begin(op)
	if err != nil {
		return nil, err
	}
	v := z3_solver_get_unsat_core(c.z, s.s)
	return c.vectorTerms(op, v)
}

// vectorTerms copies the terms of an ast vector Z3 has just returned and
// releases the vector.
func (c *Context) vectorTerms(op string, v z3_ast_vector) ([]*Term, error) {
	err := c.lastError(op)
	if v == 0 {
		if err == nil {
			err = &Error{Op: op, Kind: ErrorException, Message: "Z3 returned no vector"}
		}
		return nil, err
	}
	z3_ast_vector_inc_ref(c.z, v)
	defer z3_ast_vector_dec_ref(c.z, v)
	if err != nil {
		return nil, err
	}
	n := int(z3_ast_vector_size(c.z, v))
	out := make([]*Term, n)
	for i := range out {
		if out[i], err = c.result(op, z3_ast_vector_get(c.z, v, uint32(i))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Model returns a model of the last Sat check.
func (s *Solver) Model() (*Model, error) {
	const op = "Solver.Model"
	c, err := s.begin(op)
	if err != nil {
		return nil, err
	}
	m := z3_solver_get_model(c.z, s.s)
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	if m == 0 {
		return nil, &Error{Op: op, Kind: ErrorInvalidUsage, Message: "no model"}
	}
	return c.newModel(m), nil
}

// String dumps the solver's assertions in SMT-LIB2 syntax (for debugging).
func (s *Solver) String() string {
	c, err := s.begin("Solver.String")
	if err != nil {
		return "<invalid solver>"
	}
	return z3_solver_to_string(c.z, s.s)
}

// SetTimeout limits every later check to ms milliseconds; a check stopped by
// it returns Unknown with ReasonUnknown "timeout". ms must be positive: Z3
// reads 0 as "no limit", so a zero budget is rejected rather than turned
// into an unlimited one.
func (s *Solver) SetTimeout(ms uint32) error {
	if ms == 0 {
		return argError("Solver.SetTimeout", "timeout must be positive (use ClearTimeout for none)")
	}
	return s.SetParam("timeout", ms)
}

// ClearTimeout removes the timeout.
func (s *Solver) ClearTimeout() error {
	return s.SetParam("timeout", uint32(math.MaxUint32))
}

// SetParam sets one solver parameter, e.g. "timeout" (ms), "random_seed",
// "rlimit", "unsat_core" or "max_conflicts". The value's Go type selects
// Z3's parameter type: bool; an unsigned or non-negative integer (at most
// 2^32-1); float64; or string (a symbol). Unknown names and wrong types are
// errors.
func (s *Solver) SetParam(name string, value any) error {
	const op = "Solver.SetParam"
	if _, err := s.begin(op); err != nil {
		return err
	}
	return s.setParam(op, name, value)
}

func (s *Solver) setParam(op, name string, value any) error {
	return s.setParams(op, []Param{{name, value}})
}

// setParams sets params on s in one call to Z3 (each call on a built
// solver validates all of the solver's parameters).
func (s *Solver) setParams(op string, params []Param) error {
	c := s.ctx
	p := z3_mk_params(c.z)
	if err := c.lastError(op); err != nil {
		return err
	}
	z3_params_inc_ref(c.z, p)
	defer z3_params_dec_ref(c.z, p)
	for _, prm := range params {
		if prm.Name == "ctrl_c" && prm.Value != false {
			return argError(op, "ctrl_c must stay false: Z3 would take over the process's SIGINT handler")
		}
		key := c.symbol(prm.Name)
		switch v := prm.Value.(type) {
		case bool:
			z3_params_set_bool(c.z, p, key, bool(v))
		case float64:
			z3_params_set_double(c.z, p, key, float64(v))
		case string:
			z3_params_set_symbol(c.z, p, key, c.symbol(v))
		default:
			u, ok := uint32Value(prm.Value)
			if !ok {
				return argError(op, "parameter %s: unsupported value %v (%T)", prm.Name, prm.Value, prm.Value)
			}
			z3_params_set_uint(c.z, p, key, uint32(u))
		}
		if err := c.lastError(op); err != nil {
			return err
		}
	}
	z3_solver_set_params(c.z, s.s, p)
	if err := c.lastError(op); err != nil {
		return err
	}
	for _, prm := range params {
		if prm.Name == "timeout" {
			s.timeout = 0
			if u, _ := uint32Value(prm.Value); u != 0 && u != math.MaxUint32 {
				s.timeout = time.Duration(u) * time.Millisecond
			}
		}
	}
	return nil
}

// uint32Value accepts Go integers that fit Z3's unsigned parameters.
func uint32Value(v any) (uint32, bool) {
	var n int64
	switch x := v.(type) {
	case uint32:
		return x, true
	case uint:
		if uint64(x) > math.MaxUint32 {
			return 0, false
		}
		return uint32(x), true
	case uint64:
		if x > math.MaxUint32 {
			return 0, false
		}
		return uint32(x), true
	case uint8:
		return uint32(x), true
	case uint16:
		return uint32(x), true
	case int:
		n = int64(x)
	case int64:
		n = x
	case int32:
		n = int64(x)
	default:
		return 0, false
	}
	if n < 0 || n > math.MaxUint32 {
		return 0, false
	}
	return uint32(n), true
}
