package inspect

import "sort"

// Severities, as the registry and the JSON output spell them.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Bases: how a diagnostic was decided. Structural facts read the model's
// shape and constant expressions only; nothing is guessed from a search
// that stopped early.
const (
	BasisStructural = "structural"
)

// Code is one entry of the registry: a code stateproof emits.
type Code struct {
	Name        string // pyfcstm's code name, e.g. W_UNREACHABLE_STATE
	Severity    string
	Basis       string
	Description string   // stateproof's own one-line description
	Refs        []string // the refs fields every diagnostic of this code carries
}

// Codes returns the registry, sorted by name. The slice is new on every
// call, so callers may keep or change it.
func Codes() []Code {
	cs := []Code{
		{"W_UNREACHABLE_STATE", SeverityWarning, BasisStructural, "No run can enter the state: no initial transition or firing transition from an enterable state leads to it.", []string{"state_path"}},
		{"W_UNUSED_EVENT", SeverityWarning, BasisStructural, "A declared event triggers no transition.", []string{"event_qualified_name", "scope"}},
		{"W_UNREFERENCED_VAR", SeverityWarning, BasisStructural, "The variable influences no transition guard, directly or through the assignments that feed one, and no abstract action could read it.", []string{"var_name", "init_value"}},
		{"W_WRITE_ONLY_VAR", SeverityWarning, BasisStructural, "The variable is assigned but no expression ever reads it.", []string{"var_name", "written_states"}},
		{"W_UNWRITTEN_READ_VAR", SeverityWarning, BasisStructural, "The variable is read but nothing ever assigns it, so it keeps its initial value.", []string{"var_name", "read_states", "init_value"}},
		{"W_GUARD_VARS_NEVER_CHANGE", SeverityWarning, BasisStructural, "Every variable the guard reads keeps its initial value, so the guard is decided at start.", []string{"from_path", "to_path", "guard_vars"}},
		{"W_EFFECT_SELF_ASSIGN", SeverityWarning, BasisStructural, "A transition effect assigns a variable its own value.", []string{"state_path", "var_name"}},
		{"W_LEAF_NO_OUTGOING_TRANSITION", SeverityWarning, BasisStructural, "A leaf state (not pseudo, not the root) has no transition out of it.", []string{"state_path", "reason"}},
		{"W_NUMERIC_CONSTANT_DIVISION_BY_ZERO", SeverityWarning, BasisStructural, "The right-hand side of / or % is a constant zero; C and C++ code generated from the model has no defined result for it.", []string{"target_family", "target_templates", "runtime_note", "context", "expr_text", "operator", "rhs_text"}},
		{"W_NUMERIC_FLOAT_BITWISE", SeverityWarning, BasisStructural, "A float operand reaches a bitwise or shift operator, which C and C++ define on integers only.", []string{"target_family", "target_templates", "runtime_note", "context", "expr_text", "operator", "operand_types", "operand_type_sources"}},
		{"W_COMBO_DUPLICATE_EVENT", SeverityWarning, BasisStructural, "A combo trigger names the same event twice; one input satisfies both terms.", []string{"origin_id", "event_name", "term_index", "first_term_index", "term_text", "first_term_text"}},
		{"W_GUARD_CONST_TRUE", SeverityWarning, BasisStructural, "The guard reads no variable and is always true: it constrains nothing.", []string{"folded_value"}},
		{"W_GUARD_CONST_FALSE", SeverityWarning, BasisStructural, "The guard reads no variable and is always false: the transition never fires.", []string{"folded_value"}},
		{"W_DEAD_NAMED_ACTION", SeverityWarning, BasisStructural, "A named action belongs to a state no run enters and no action of an enterable state refers to it.", []string{"function_name", "defined_in"}},
		{"I_TRANSITION_TO_SELF_VIA_PARENT", SeverityInfo, BasisStructural, "A composite state transitions to itself: it exits and re-enters, running its initial transition again.", []string{"state_path", "crosses_composite"}},
		{"I_UNREFERENCED_VAR_MAYBE_ABSTRACT", SeverityInfo, BasisStructural, "The variable influences no transition guard within the model, but the model has abstract actions, which may use it.", []string{"var_name", "abstract_actions_in_scope"}},
		{"W_INITIAL_UNCONDITIONAL_MISSING", SeverityWarning, BasisStructural, "Every initial transition of the composite has an event or a guard; none is guaranteed to fire.", []string{"composite_path", "existing_conditional_count"}},
		{"W_SELF_TRANSITION_NOP", SeverityWarning, BasisStructural, "A leaf's self transition has no event, guard, effect or action to run.", []string{"state_path"}},
		{"W_ASPECT_NO_DESCENDANT_LEAF", SeverityWarning, BasisStructural, "A >> during aspect is on a state with no non-pseudo leaf below it, so it never runs.", []string{"composite_path", "aspect"}},
		{"W_DURING_CONST_ASSIGN", SeverityWarning, BasisStructural, "A leaf's during action assigns a variable the same constant every cycle.", []string{"state_path", "var_name", "value"}},
		{"W_REDUNDANT_TRANSITION", SeverityWarning, BasisStructural, "A transition repeats an earlier one of the same composite: same source, target, event, guard and effect.", []string{"from_path", "to_path", "duplicate_spans"}},
		{"W_FORCED_NEVER_EXPANDS", SeverityWarning, BasisStructural, "A `!* ->` forced transition is declared in a state without child states, so it applies to nothing.", []string{"state_path", "original_raw"}},
		{"W_NAMED_ACTION_SHADOWS_ANCESTOR", SeverityWarning, BasisStructural, "A named action has the name of a named action of an enclosing state.", []string{"function_name", "inner_state_path", "outer_state_path"}},
	}
	cs = append(cs, loadCodes()...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs
}

// Lookup returns the registry entry of a code.
func Lookup(name string) (Code, bool) {
	for _, c := range Codes() {
		if c.Name == name {
			return c, true
		}
	}
	return Code{}, false
}
