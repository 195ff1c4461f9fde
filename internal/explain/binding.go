package explain

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// encodeFact re-encodes a published fact from scratch over the frame
// symbols (equation 8 compares it with the member's own formula).
func (p *prover) encodeFact(f fact) (*z3.Term, error) {
	ctx, enc, sys := p.io.ctx, p.req.Enc, p.req.Sys
	frame, _ := f["frame"].(int)
	switch f.kind() {
	case "variable_comparison", "definedness_condition":
		k := sys.VarIndex(fmt.Sprint(f["variable"]))
		if k < 0 || frame >= len(enc.Vars) {
			return nil, nil
		}
		x := enc.Vars[frame][k]
		if f.kind() == "definedness_condition" {
			zero, err := p.num(sys.Vars[k].Sort, int64(0))
			if err != nil {
				return nil, err
			}
			eq, err := ctx.Eq(x, zero)
			if err != nil {
				return nil, err
			}
			return ctx.Not(eq)
		}
		v, err := p.num(sys.Vars[k].Sort, f["value"])
		if err != nil || v == nil {
			return nil, err
		}
		return compare(ctx, f["operator"].(string), x, v)
	case "state_membership":
		eq, err := p.stateIs(frame, fmt.Sprint(f["state"]))
		if err != nil || f["holds"] == true || eq == nil {
			return eq, err
		}
		return ctx.Not(eq)
	case "state_domain":
		var opts []*z3.Term
		for _, s := range f["states"].([]any) {
			eq, err := p.stateIs(frame, fmt.Sprint(s))
			if err != nil || eq == nil {
				return nil, err
			}
			opts = append(opts, eq)
		}
		return ctx.Or(opts...)
	case "proposition":
		var name string
		var step int
		if _, err := fmt.Sscanf(fmt.Sprint(f["identity"]), "%s at frame %d", &name, &step); err == nil {
			k := sys.VarIndex(name)
			if k < 0 || step >= len(enc.Vars) || sys.Vars[k].Sort != sts.Bool {
				return nil, nil
			}
			if f["holds"] == true {
				return enc.Vars[step][k], nil
			}
			return ctx.Not(enc.Vars[step][k])
		}
		if _, err := fmt.Sscanf(fmt.Sprint(f["identity"]), "event %s at step %d", &name, &step); err != nil {
			return nil, nil
		}
		ev := sys.EventIndex(name)
		if ev < 0 || step >= len(enc.Events) {
			return nil, nil
		}
		if f["holds"] == true {
			return enc.Events[step][ev], nil
		}
		return ctx.Not(enc.Events[step][ev])
	}
	return nil, nil
}

func (p *prover) stateIs(frame int, name string) (*z3.Term, error) {
	id := -100
	switch name {
	case "__init__":
		id = sts.InitID
	case "__terminate__":
		id = sts.TerminatedID
	default:
		if l := p.req.Sys.LocationByName(name); l != nil {
			id = l.ID
		}
	}
	if id == -100 || frame >= len(p.req.Enc.States) {
		return nil, nil
	}
	v, err := p.io.ctx.IntVal(int64(id))
	if err != nil {
		return nil, err
	}
	return p.io.ctx.Eq(p.req.Enc.States[frame], v)
}

func (p *prover) num(sort sts.Sort, v any) (*z3.Term, error) {
	switch x := v.(type) {
	case bool:
		if sort != sts.Bool {
			return nil, nil
		}
		return p.io.ctx.BoolVal(x)
	case int64:
		if sort == sts.Real {
			return p.io.ctx.RealVal(x, 1)
		}
		if sort == sts.Int {
			return p.io.ctx.IntVal(x)
		}
	}
	return nil, nil
}

func compare(ctx *z3.Context, op string, x, v *z3.Term) (*z3.Term, error) {
	switch op {
	case "==":
		return ctx.Eq(x, v)
	case "!=":
		eq, err := ctx.Eq(x, v)
		if err != nil {
			return nil, err
		}
		return ctx.Not(eq)
	case "<":
		return ctx.Lt(x, v)
	case "<=":
		return ctx.Le(x, v)
	case ">":
		return ctx.Gt(x, v)
	case ">=":
		return ctx.Ge(x, v)
	}
	return nil, nil
}

// bind refutes both directions of equation 8: UNSAT(Φ(c) ∧ ¬f) and
// UNSAT(f ∧ ¬Φ(c)). Any SAT, unknown or timeout refuses the binding.
func (p *prover) bind(phi, f *z3.Term, name string) (bool, error) {
	for _, dir := range [][2]*z3.Term{{phi, f}, {f, phi}} {
		ok, err := p.refute(dir[0], dir[1], name, &p.binding)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// refute checks UNSAT(a ∧ ¬b) with the groups' literals left inactive.
func (p *prover) refute(a, b *z3.Term, name string, row *rowAcc) (bool, error) {
	nb, err := p.io.ctx.Not(b)
	if err != nil {
		return false, err
	}
	la, err := p.io.guard(name, a)
	if err != nil {
		return false, err
	}
	lb, err := p.io.guard(name, nb)
	if err != nil {
		return false, err
	}
	res, err := p.io.check([]*z3.Term{la, lb})
	if err != nil {
		return false, err
	}
	row.note(res)
	return res.Ran && res.Status == "unsat", nil
}

// entailedBy looks for core members, all but one, that entail goal: a
// subset-minimal core minus any member is SAT, so the entailment is not
// the vacuous one of an UNSAT premise set. It returns the cited ids.
func (p *prover) entailedBy(goal *z3.Term, row *rowAcc) ([]string, error) {
	ng, err := p.io.ctx.Not(goal)
	if err != nil {
		return nil, err
	}
	lg, err := p.io.guard("goal", ng)
	if err != nil {
		return nil, err
	}
	for skip := 0; skip < len(p.members); skip++ {
		var ls []*z3.Term
		var ids []string
		for k, g := range p.members {
			if k != skip {
				ls, ids = append(ls, g.Lit), append(ids, g.ID)
			}
		}
		res, err := p.io.check(append(ls, lg))
		if err != nil {
			return nil, err
		}
		row.note(res)
		if !res.Ran {
			return nil, nil
		}
		if res.Status == "unsat" {
			return ids, nil
		}
	}
	return nil, nil
}

// entail discharges a solver rule for the deriver.
func (p *prover) entail(a *application) (bool, error) {
	switch a.rule {
	case "case_condition_entailment":
		sel := p.selector(a.conclusion)
		if sel == nil {
			return false, nil
		}
		ids, err := p.entailedBy(sel, &p.caseRow)
		p.cite(a, ids)
		return ids != nil, err
	case "preceding_value_entailment":
		pub := fact{"kind": "variable_comparison", "variable": a.conclusion["variable"], "frame": a.conclusion["frame"], "operator": "==", "value": a.conclusion["value"]}
		goal, err := p.encodeFact(pub)
		if err != nil || goal == nil {
			return false, err
		}
		ids, err := p.entailedBy(goal, &p.carry)
		p.cite(a, ids)
		return ids != nil, err
	}
	return false, nil
}

// cite records the members a solver step used. Their input nodes (node k
// is member k's input) become premises too, so the dependency cone of the
// root reaches every member the step rests on.
func (p *prover) cite(a *application, ids []string) {
	a.items = ids
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	for k, g := range p.members {
		if in[g.ID] && !containsInt(a.premises, k) {
			a.premises = append(a.premises, k)
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// selector finds the case selector a transition_case fact names.
func (p *prover) selector(f fact) *z3.Term {
	step, _ := f["frame"].(int)
	if step >= len(p.req.Enc.Sels) {
		return nil
	}
	for _, s := range p.req.Enc.Sels[step] {
		if s.Case.Label == f["case"] {
			return s.Term
		}
	}
	return nil
}

// unitInput restates one case of a step relation as a transition_case
// fact bound to that one requirement (core_binding_unit). The case is the
// one the other core members select; the variable is one another member
// talks about.
func (p *prover) unitInput(g *smt.Group, src *sources) (*node, string, error) {
	step := g.Frame
	sels := p.req.Enc.Sels[step]
	for i, sel := range sels {
		if i >= len(g.Units) {
			break
		}
		ids, err := p.entailedBy(sel.Term, &p.caseRow)
		if err != nil {
			return nil, "", err
		}
		if ids == nil {
			continue
		}
		for _, x := range p.mentionedVars(step) {
			f, ok := caseFact(p.req.Sys, sel, step, x)
			if !ok {
				continue
			}
			term, err := p.encodeCase(f, g.Units[i], sel, x)
			if err != nil || term == nil {
				continue
			}
			ok, err = p.bind(g.Units[i], term, g.ID)
			if err != nil {
				return nil, "", err
			}
			if !ok {
				continue
			}
			if twin, err := p.twinUnit(term, g.Units, i, g.ID); err != nil || twin {
				return nil, "a transition fact is equivalent to two requirements of " + g.ID + ", so it identifies neither", err
			}
			return &node{kind: "input", rule: "source_fact", conclusion: f, items: []string{g.ID}, method: "core_binding_unit", unitIndex: i, unitCount: len(g.Units)}, "", nil
		}
	}
	return nil, p.noCloseReason(), nil
}

// twinUnit reports whether f is also equivalent to another unit.
func (p *prover) twinUnit(f *z3.Term, units []*z3.Term, self int, name string) (bool, error) {
	for j, u := range units {
		if j == self {
			continue
		}
		ok, err := p.refute(f, u, name, &p.binding)
		if err != nil || !ok {
			if err != nil {
				return false, err
			}
			continue
		}
		if ok, err = p.refute(u, f, name, &p.binding); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// mentionedVars lists the variables other core facts state at the step's
// frames, in member order.
func (p *prover) mentionedVars(step int) []int {
	var out []int
	seen := map[int]bool{}
	for _, it := range p.core.Items {
		f := it.Fact
		fr, _ := f["frame"].(int)
		if f.kind() != "variable_comparison" || (fr != step && fr != step+1) {
			continue
		}
		if k := p.req.Sys.VarIndex(fmt.Sprint(f["variable"])); k >= 0 && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// caseFact reads what case sel does to variable x: one effect of the form
// x ± n, x * n, a literal or another variable, or no effect (a carry).
func caseFact(sys *sts.System, sel smt.Selector, step, x int) (fact, bool) {
	f := fact{"kind": "transition_case", "variable": sys.Vars[x].Name, "frame": step, "target_frame": step + 1,
		"case": sel.Case.Label, "condition": fmt.Sprintf("case %s is selected at step %d", sel.Case.Label, step)}
	var eff []sts.Effect
	for _, e := range sel.Case.Effects {
		if e.Var == x {
			eff = append(eff, e)
		}
	}
	switch {
	case len(eff) == 0:
		f["operation"], f["operand_variable"] = "set", sys.Vars[x].Name
		return f, true
	case len(eff) > 1:
		return nil, false
	}
	switch v := eff[0].Value.(type) {
	case *expr.Binary:
		op, ok := map[expr.Op]string{expr.Add: "add", expr.Sub: "sub", expr.Mul: "mul"}[v.Op]
		id, isVar := v.X.(*expr.Ident)
		lit, isLit := literal(v.Y)
		if !ok || !isVar || id.Name != sys.Vars[x].Name || !isLit {
			return nil, false
		}
		f["operation"], f["operand"] = op, lit
	case *expr.Ident:
		f["operation"], f["operand_variable"] = "set", v.Name
	default:
		lit, ok := literal(v)
		if !ok {
			return nil, false
		}
		f["operation"], f["operand"] = "set", lit
	}
	return f, true
}

// encodeCase re-encodes a transition_case fact: the case's selector
// implies the unit's other requirements and, encoded afresh from the fact,
// the assignment to the fact's variable (Decision: a case is published by
// one variable; its other conjuncts are kept as the unit states them).
func (p *prover) encodeCase(f fact, unit *z3.Term, sel smt.Selector, x int) (*z3.Term, error) {
	ctx, enc := p.io.ctx, p.req.Enc
	step := f["frame"].(int)
	args, err := unit.Args()
	if err != nil || len(args) != 2 {
		return nil, err
	}
	parts, err := args[1].Args()
	if err != nil {
		return nil, err
	}
	target := enc.Vars[step+1][x]
	var rest []*z3.Term
	found := false
	for _, c := range parts {
		if c.NumArgs() == 2 {
			if a0, err := c.Arg(0); err == nil && a0.Equal(target) {
				found = true
				continue
			}
		}
		rest = append(rest, c)
	}
	if !found {
		return nil, nil
	}
	val, err := p.caseValue(f, step, x)
	if err != nil || val == nil {
		return nil, err
	}
	eq, err := ctx.Eq(target, val)
	if err != nil {
		return nil, err
	}
	body, err := ctx.And(append(rest, eq)...)
	if err != nil {
		return nil, err
	}
	return ctx.Implies(sel.Term, body)
}

func (p *prover) caseValue(f fact, step, x int) (*z3.Term, error) {
	ctx, enc, sys := p.io.ctx, p.req.Enc, p.req.Sys
	var operand *z3.Term
	var err error
	if ov, ok := f["operand_variable"]; ok {
		k := sys.VarIndex(fmt.Sprint(ov))
		if k < 0 {
			return nil, nil
		}
		operand = enc.Vars[step][k]
	} else if operand, err = p.num(sys.Vars[x].Sort, f["operand"]); err != nil || operand == nil {
		return nil, err
	}
	cur := enc.Vars[step][x]
	switch f["operation"] {
	case "set":
		return operand, nil
	case "add":
		return ctx.Add(cur, operand)
	case "sub":
		return ctx.Sub(cur, operand)
	case "mul":
		return ctx.Mul(cur, operand)
	}
	return nil, nil
}
