package z3

// EliminateQuantifiers returns a quantifier-free formula equivalent to f
// (a closed Boolean formula over constants) by Z3's "qe" tactic, which is
// complete for linear integer and real arithmetic; the result may use mod
// for divisibility. It is an error when the tactic leaves a quantifier, or
// when it splits f into several subgoals (qe does not), so a caller never
// gets a formula weaker or stronger than f. The tactic's objects live only
// inside this call.
func (c *Context) EliminateQuantifiers(f *Term) (*Term, error) {
	const op = "EliminateQuantifiers"
	as, err := c.prepare(op, f)
	if err != nil {
		return nil, err
	}
	if f.SortKind() != SortBool {
		return nil, argError(op, "not a formula: %s", f)
	}
	name := "qe"
	tac := z3_mk_tactic(c.z, name)
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	z3_tactic_inc_ref(c.z, tac)
	defer z3_tactic_dec_ref(c.z, tac)
	g := z3_mk_goal(c.z, true, false, false)
	z3_goal_inc_ref(c.z, g)
	defer z3_goal_dec_ref(c.z, g)
	z3_goal_assert(c.z, g, as[0])
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	res := z3_tactic_apply(c.z, tac, g)
	if err := c.lastError(op); err != nil {
		return nil, err
	}
	z3_apply_result_inc_ref(c.z, res)
	defer z3_apply_result_dec_ref(c.z, res)
	if n := z3_apply_result_get_num_subgoals(c.z, res); n != 1 {
		return nil, &Error{Op: op, Kind: ErrorException, Message: "qe returned " + itoa(int64(n)) + " subgoals"}
	}
	sub := z3_apply_result_get_subgoal(c.z, res, 0)
	size := int(z3_goal_size(c.z, sub))
	parts := make([]*Term, size)
	for i := range parts {
		if parts[i], err = c.result(op, z3_goal_formula(c.z, sub, uint32(i))); err != nil {
			return nil, err
		}
		if hasQuantifier(parts[i], 0) {
			return nil, &Error{Op: op, Kind: ErrorException, Message: "qe left a quantifier in " + parts[i].String()}
		}
	}
	if size == 0 {
		return c.True()
	}
	return c.And(parts...)
}

// hasQuantifier reports whether t contains a quantifier (or is too deep to
// tell, which counts as yes).
func hasQuantifier(t *Term, depth int) bool {
	if depth > 10000 {
		return true
	}
	switch t.Kind() {
	case KindQuantifier:
		return true
	case KindApp:
		args, err := t.Args()
		if err != nil {
			return true
		}
		for _, a := range args {
			if hasQuantifier(a, depth+1) {
				return true
			}
		}
	}
	return false
}

// HasQuantifier reports whether t contains a quantifier.
func (t *Term) HasQuantifier() bool { return hasQuantifier(t, 0) }
