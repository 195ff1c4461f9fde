package explain

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
)

// fact is a normalised fact: a kind and its fields, as JSON shapes them.
// Maps keep the canonical JSON that deduplicates conclusions.
type fact map[string]any

func (f fact) kind() string { s, _ := f["kind"].(string); return s }

func structural() fact { return fact{"kind": "structural_constraint"} }

// sources reads facts and spans from what the groups were built from: the
// query's clauses and the system's declarations (JSON models have no
// other front end yet, docs/architecture.md).
type sources struct {
	sys *sts.System
	q   *query.Query
}

func newSources(req *bmc.ExplainRequest) *sources { return &sources{sys: req.Sys, q: req.Query} }

// idField returns the number after key in a stable id
// ("assumption.0003.frame.0001", "assumption") -> 3.
func idField(id, key string) (int, bool) {
	parts := strings.Split(id, ".")
	for i := 0; i+1 < len(parts); i++ {
		if parts[i] == key {
			n, err := strconv.Atoi(parts[i+1])
			return n, err == nil
		}
	}
	return 0, false
}

// factOf is the published normalised fact of a group: the honest fallback
// structural_constraint whenever no recogniser reads its shape.
func (s *sources) factOf(g *smt.Group) fact {
	id := g.ID
	switch {
	case strings.HasPrefix(id, "domain.frame."):
		states := []any{}
		for _, n := range s.domainStates(g.Frame) {
			states = append(states, n)
		}
		return fact{"kind": "state_domain", "frame": g.Frame, "states": states}
	case id == "initial.target":
		return fact{"kind": "state_membership", "frame": 0, "state": s.sys.LocationName(s.startID()), "holds": true}
	case strings.HasPrefix(id, "initial.variable.") && !strings.Contains(id, ".definedness."):
		k := s.sys.VarIndex(strings.TrimPrefix(id, "initial.variable."))
		if k < 0 {
			return structural()
		}
		if v, ok := literal(s.sys.Vars[k].Init); ok {
			return fact{"kind": "variable_comparison", "variable": s.sys.Vars[k].Name, "frame": 0, "operator": "==", "value": v}
		}
	case id == "initial.where" && s.q.Init != nil:
		return s.condFact(s.q.Init.Where, 0)
	case strings.HasSuffix(id, ".definedness.0000"):
		if e := s.parentExpr(id); e != nil {
			return s.definednessFact(e, g.Frame)
		}
	case strings.HasPrefix(id, "assumption.") && strings.Contains(id, ".frame."):
		if e := s.parentExpr(id); e != nil {
			return s.condFact(e, g.Frame)
		}
	}
	return structural()
}

// parentExpr is the condition a frame assumption or init where group (or
// its definedness group) was lowered from.
func (s *sources) parentExpr(id string) expr.Expr {
	if strings.HasPrefix(id, "initial.where") {
		if s.q.Init != nil {
			return s.q.Init.Where
		}
		return nil
	}
	if !strings.Contains(id, ".frame.") {
		return nil
	}
	ai, ok := idField(id, "assumption")
	if !ok || ai >= len(s.q.Assumes) {
		return nil
	}
	return s.q.Assumes[ai].Cond
}

func (s *sources) startID() int {
	if in := s.q.Init; in != nil {
		switch in.Mode {
		case query.State:
			if l := s.sys.LocationByName(in.State.Name); l != nil {
				return l.ID
			}
		case query.Terminated:
			return sts.TerminatedID
		}
	}
	return s.sys.Start
}

// domainStates lists the values frame i's state may take, as the domain
// group admits them (sentinels by their public names).
func (s *sources) domainStates(i int) []string {
	var out []string
	if i == 0 {
		for _, id := range []int{sts.InitID, sts.TerminatedID} {
			if _, ok := s.sys.Cases[id]; ok || s.sys.Start == id {
				out = append(out, s.sys.LocationName(id))
			}
		}
	} else if _, ok := s.sys.Cases[sts.TerminatedID]; ok {
		out = append(out, s.sys.LocationName(sts.TerminatedID))
	}
	for _, l := range s.sys.Locations {
		out = append(out, l.Name)
	}
	return out
}

// condFact recognises one atomic requirement at frame f: a comparison of
// one variable with a literal, a boolean variable or its negation, a state
// membership, or one event at one step.
func (s *sources) condFact(e expr.Expr, f int) fact {
	holds := true
	if u, ok := e.(*expr.Unary); ok && u.Op == expr.Not {
		e, holds = u.X, false
	}
	switch n := e.(type) {
	case *expr.AtomCall:
		switch arg := atomString(n); {
		case n.Name == "active" && arg != "" && s.sys.LocationByName(arg) != nil:
			return fact{"kind": "state_membership", "frame": f, "state": arg, "holds": holds}
		case n.Name == "event" && arg != "" && s.sys.EventIndex(arg) >= 0:
			return fact{"kind": "proposition", "identity": fmt.Sprintf("event %s at step %d", arg, f), "holds": holds}
		}
		if v := s.varRef(n); v != "" && s.isBool(v) {
			return boolProp(v, f, holds)
		}
	case *expr.Ident:
		if v := s.varRef(n); v != "" && s.isBool(v) {
			return boolProp(v, f, holds)
		}
	case *expr.Binary:
		if !holds || !n.Op.IsComparison() {
			break
		}
		op, x, y := n.Op, n.X, n.Y
		if s.varRef(x) == "" {
			op, x, y = flip(op), y, x
		}
		v := s.varRef(x)
		lit, ok := literal(y)
		if v == "" || !ok {
			break
		}
		if _, isBool := lit.(bool); isBool != s.isBool(v) {
			break
		}
		return fact{"kind": "variable_comparison", "variable": v, "frame": f, "operator": op.String(), "value": lit}
	}
	return structural()
}

// boolProp publishes a bare boolean variable (or its negation) as a
// proposition about one variable at one frame (Decision: the proposition
// kind covers boolean literals; `v == true` stays a comparison).
func boolProp(v string, f int, holds bool) fact {
	return fact{"kind": "proposition", "identity": fmt.Sprintf("%s at frame %d", v, f), "holds": holds}
}

// definednessFact reads a definedness group whose condition has exactly
// one partial operation: a division or modulo by a variable.
func (s *sources) definednessFact(e expr.Expr, f int) fact {
	var found []fact
	expr.Inspect(e, func(n expr.Expr) bool {
		if b, ok := n.(*expr.Binary); ok && (b.Op == expr.Div || b.Op == expr.Mod) {
			op := map[expr.Op]string{expr.Div: "div", expr.Mod: "mod"}[b.Op]
			if v := s.varRef(b.Y); v != "" {
				found = append(found, fact{"kind": "definedness_condition", "frame": f, "operation": op, "variable": v})
			} else {
				found = append(found, structural())
			}
		}
		return true
	})
	if len(found) == 1 {
		return found[0]
	}
	return structural()
}

func flip(op expr.Op) expr.Op {
	switch op {
	case expr.Lt:
		return expr.Gt
	case expr.Le:
		return expr.Ge
	case expr.Gt:
		return expr.Lt
	case expr.Ge:
		return expr.Le
	}
	return op
}

// varRef names the model variable e reads (x or var("x")), or "".
func (s *sources) varRef(e expr.Expr) string {
	switch n := e.(type) {
	case *expr.Ident:
		if n.Name != "cycle" && s.sys.VarIndex(n.Name) >= 0 {
			return n.Name
		}
	case *expr.AtomCall:
		if a := atomString(n); n.Name == "var" && s.sys.VarIndex(a) >= 0 {
			return a
		}
	}
	return ""
}

func (s *sources) isBool(v string) bool {
	k := s.sys.VarIndex(v)
	return k >= 0 && s.sys.Vars[k].Sort == sts.Bool
}

func atomString(a *expr.AtomCall) string {
	if len(a.Args) > 0 {
		if sl, ok := a.Args[0].Value.(*expr.StringLit); ok {
			return sl.Value
		}
	}
	return ""
}

// literal reads an integer or boolean literal (a negated integer too).
// Floats are not read: a fact's value is exact.
func literal(e expr.Expr) (any, bool) {
	switch n := e.(type) {
	case *expr.IntLit:
		if n.Big != nil { // facts carry int64 values: not read
			return nil, false
		}
		return n.Value, true
	case *expr.BoolLit:
		return n.Value, true
	case *expr.Unary:
		if l, ok := n.X.(*expr.IntLit); ok && n.Op == expr.Neg && l.Big == nil && l.Value != math.MinInt64 {
			return -l.Value, true
		}
		if l, ok := n.X.(*expr.IntLit); ok && n.Op == expr.Plus && l.Big == nil {
			return l.Value, true
		}
	}
	return nil, false
}

// sentence renders a fact for a person.
func sentence(f fact) string {
	switch f.kind() {
	case "variable_comparison":
		return fmt.Sprintf("%v %s %v at frame %v", f["variable"], opWords(f["operator"].(string)), f["value"], f["frame"])
	case "state_membership":
		if f["holds"] == false {
			return fmt.Sprintf("The state at frame %v is not %v", f["frame"], f["state"])
		}
		return fmt.Sprintf("The state at frame %v is %v", f["frame"], f["state"])
	case "state_domain":
		return fmt.Sprintf("The state at frame %v is one of %s", f["frame"], joinAny(f["states"]))
	case "definedness_condition":
		return fmt.Sprintf("At frame %v the %s needs %v to be nonzero", f["frame"], map[any]string{"div": "division", "mod": "modulo"}[f["operation"]], f["variable"])
	case "proposition":
		if f["holds"] == false {
			return fmt.Sprintf("Not (%v)", f["identity"])
		}
		return fmt.Sprint(f["identity"])
	case "transition_case":
		return caseSentence(f)
	}
	return "A constraint no recogniser reads (structural)"
}

func caseSentence(f fact) string {
	var what string
	operand := fmt.Sprint(f["operand"])
	if v, ok := f["operand_variable"]; ok {
		operand = fmt.Sprintf("%v (frame %v)", v, f["frame"])
	}
	switch f["operation"] {
	case "set":
		what = fmt.Sprintf("%v at frame %v becomes %s", f["variable"], f["target_frame"], operand)
	default:
		what = fmt.Sprintf("%v at frame %v is %v at frame %v %s %s", f["variable"], f["target_frame"], f["variable"], f["frame"], arithSymbol(f["operation"]), operand)
	}
	if c, ok := f["condition"]; ok {
		return fmt.Sprintf("If %v, %s", c, what)
	}
	if c, ok := f["case"]; ok {
		return fmt.Sprintf("Step %v takes case %v, so %s", f["frame"], c, what)
	}
	return what
}

func arithSymbol(op any) string {
	return map[any]string{"add": "+", "sub": "-", "mul": "*", "div": "/"}[op]
}

func opWords(op string) string {
	return map[string]string{"==": "is", "!=": "is not", "<": "is below", "<=": "is at most", ">": "is above", ">=": "is at least"}[op]
}

func joinAny(v any) string {
	xs, _ := v.([]any)
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}
