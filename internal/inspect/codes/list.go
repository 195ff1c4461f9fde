package codes

// inspectCodes are the codes `stateproof inspect` reports on a model that
// loads, under pyfcstm's names; Verify is set where verify's lints report
// the same problem.
func inspectCodes() []Code {
	w, i, s := SeverityWarning, SeverityInfo, BasisStructural
	smtRefs := []string{"algorithm_name", "verification_scope", "transition", "transition_summary"}
	return []Code{
		{"W_UNREACHABLE_STATE", w, s, "No run can enter the state: no initial transition or firing transition from an enterable state leads to it.", []string{"state_path"}, "FCSTM_UNREACHABLE_STATE", "FCSTM-L1"},
		{"W_UNUSED_EVENT", w, s, "A declared event triggers no transition.", []string{"event_qualified_name", "scope"}, "", ""},
		{"W_UNREFERENCED_VAR", w, s, "The variable influences no transition guard, directly or through the assignments that feed one, and no abstract action could read it.", []string{"var_name", "init_value"}, "", ""},
		{"W_WRITE_ONLY_VAR", w, s, "The variable is assigned but no expression ever reads it.", []string{"var_name", "written_states"}, "", ""},
		{"W_UNWRITTEN_READ_VAR", w, s, "The variable is read but nothing ever assigns it, so it keeps its initial value.", []string{"var_name", "read_states", "init_value"}, "", ""},
		{"W_GUARD_VARS_NEVER_CHANGE", w, s, "Every variable the guard reads keeps its initial value, so the guard is decided at start.", []string{"from_path", "to_path", "guard_vars"}, "", ""},
		{"W_EFFECT_SELF_ASSIGN", w, s, "A transition effect assigns a variable its own value.", []string{"state_path", "var_name"}, "", ""},
		{"W_LEAF_NO_OUTGOING_TRANSITION", w, s, "A leaf state (not pseudo, not the root) has no transition out of it.", []string{"state_path", "reason"}, "", ""},
		{"W_NUMERIC_CONSTANT_DIVISION_BY_ZERO", w, s, "The right-hand side of / or % is a constant zero; C and C++ code generated from the model has no defined result for it.", []string{"target_family", "target_templates", "runtime_note", "context", "expr_text", "operator", "rhs_text"}, "", ""},
		{"W_NUMERIC_FLOAT_BITWISE", w, s, "A float operand reaches a bitwise or shift operator, which C and C++ define on integers only.", []string{"target_family", "target_templates", "runtime_note", "context", "expr_text", "operator", "operand_types", "operand_type_sources"}, "", ""},
		{"W_NUMERIC_LITERAL_OUT_OF_TARGET_RANGE", w, s, "An integer literal does not fit the 64-bit signed integers of C and C++ code generated from the model.", []string{"target_family", "target_templates", "runtime_note", "context", "expr_text", "literal_text", "target_bits", "signed", "min_value_text", "max_value_text"}, "", ""},
		{"W_NUMERIC_SHIFT_COUNT_OUT_OF_TARGET_RANGE", w, s, "A shift count is a constant below 0 or not below 64: rejected at run time when negative, undefined in C and C++ when too large.", []string{"target_family", "target_templates", "runtime_note", "context", "expr_text", "operator", "target_bits", "shift_count_text"}, "", ""},
		{"W_LITERAL_TYPE_NARROWING", w, s, "An int variable is initialised or assigned straight from a float literal, which is narrowed to an integer.", []string{"var_name", "target_type", "source_expr"}, "", ""},
		{"W_COMBO_DUPLICATE_EVENT", w, s, "A combo trigger names the same event twice; one input satisfies both terms.", []string{"origin_id", "event_name", "term_index", "first_term_index", "term_text", "first_term_text"}, "FCSTM_COMBO_DUPLICATE_EVENT", "FCSTM-L3"},
		{"W_GUARD_CONST_TRUE", w, s, "The guard reads no variable and is always true: it constrains nothing.", []string{"folded_value"}, "", ""},
		{"W_GUARD_CONST_FALSE", w, s, "The guard reads no variable and is always false: the transition never fires.", []string{"folded_value"}, "FCSTM_DEAD_GUARD", "FCSTM-L2"},
		{"W_DEAD_NAMED_ACTION", w, s, "A named action belongs to a state no run enters and no action of an enterable state refers to it.", []string{"function_name", "defined_in"}, "", ""},
		{"I_TRANSITION_TO_SELF_VIA_PARENT", i, s, "A composite state transitions to itself: it exits and re-enters, running its initial transition again.", []string{"state_path", "crosses_composite"}, "", ""},
		{"I_UNREFERENCED_VAR_MAYBE_ABSTRACT", i, s, "The variable influences no transition guard within the model, but the model has abstract actions, which may use it.", []string{"var_name", "abstract_actions_in_scope"}, "", ""},
		{"W_INITIAL_UNCONDITIONAL_MISSING", w, s, "Every initial transition of the composite has an event or a guard; none is guaranteed to fire.", []string{"composite_path", "existing_conditional_count"}, "", ""},
		{"W_SELF_TRANSITION_NOP", w, s, "A leaf's self transition has no event, guard, effect or action to run.", []string{"state_path"}, "", ""},
		{"W_ASPECT_NO_DESCENDANT_LEAF", w, s, "A >> during aspect is on a state with no non-pseudo leaf below it, so it never runs.", []string{"composite_path", "aspect"}, "FCSTM_ASPECT_ON_LEAF", "FCSTM-L4"},
		{"W_DURING_CONST_ASSIGN", w, s, "A leaf's during action assigns a variable the same constant every cycle.", []string{"state_path", "var_name", "value"}, "", ""},
		{"W_REDUNDANT_TRANSITION", w, s, "A transition repeats an earlier one of the same composite: same source, target, event, guard and effect.", []string{"from_path", "to_path", "duplicate_spans"}, "", ""},
		{"W_FORCED_NEVER_EXPANDS", w, s, "A `!* ->` forced transition is declared in a state without child states, so it applies to nothing.", []string{"state_path", "original_raw"}, "", ""},
		{"W_DEAD_GUARD", w, BasisSMT, "The guard, which reads int variables, is false for every value they can take: the transition never fires.", smtRefs, "", ""},
		{"W_GUARD_TAUTOLOGY", w, BasisSMT, "The guard, which reads int variables, is true for every value they can take: it constrains nothing.", smtRefs, "", ""},
		{"W_FORCED_GUARD_UNSAT", w, BasisSMT, "A forced transition's guard is false on the variables' declared initial values.", append(smtRefs[:len(smtRefs):len(smtRefs)], "scope"), "", ""},
		{"W_EFFECT_SMT_NO_OP", w, BasisSMT, "A transition's effect leaves every variable as it was on every run that takes the transition.", smtRefs, "", ""},
		{"W_COMBO_GUARD_CONST_TRUE", w, BasisSMT, "A guard term of a combo trigger, which reads int variables, is true for every value they can take.", []string{"origin_id", "term_index", "term_text", "folded_value"}, "", ""},
		{"W_COMBO_GUARD_CONST_FALSE", w, BasisSMT, "A guard term of a combo trigger, which reads int variables, is false for every value they can take: the combo never completes.", []string{"origin_id", "term_index", "term_text", "folded_value"}, "", ""},
		{"W_COMBO_GUARD_PREFIX_IMPLIED", w, BasisSMT, "The guard terms before a combo guard term imply it, with nothing changing a variable in between.", []string{"origin_id", "term_index", "prior_term_index", "term_text", "prior_term_text"}, "", ""},
		{"W_COMBO_GUARD_PREFIX_CONTRADICTS", w, BasisSMT, "The guard terms before a combo guard term contradict it, with nothing changing a variable in between: the combo never completes.", []string{"origin_id", "term_index", "prior_term_index", "term_text", "prior_term_text"}, "", ""},
		{"W_TRANSITION_SHADOWED", w, BasisSMT, "Transitions of the same source tried before this one take every run it could: it is never selected.", append(smtRefs[:len(smtRefs):len(smtRefs)], "source_state_path", "reason", "shadowed_by_count", "shadowed_by"), "", ""},
		{"I_EFFECT_GUARD_CONTRADICT", i, BasisSMT, "On every run that takes the transition, its effect makes its own guard false.", smtRefs, "", ""},
		{"W_COMPOSITE_INIT_INCOMPLETE", w, BasisSMT, "Some values of the int variables and some events leave every initial transition of a composite disabled.", []string{"algorithm_name", "verification_scope", "composite_path", "init_transition_count", "init_transitions"}, "", ""},
		{"W_UNREACHABLE_TRANSITION", w, s, "A written transition can never fire: its source state is never entered, its guard is constant false, or it repeats an earlier one.", []string{"from_path", "to_path", "reasons", "source_state_path"}, "", ""},
		{"W_EVENT_UNREACHABLE_EMIT", w, s, "Every transition the event triggers leaves a state no run enters, so emitting it never makes anything happen.", []string{"algorithm_name", "verification_scope", "event_name", "consumer_count"}, "", ""},
		{"W_FORCED_OVERRIDES_NORMAL", w, s, "A forced transition has the source, target, event and guard of a normal transition, and is tried before it.", []string{"from_path", "to_path"}, "", ""},
		{"W_SHADOWED_EVENT", w, s, "An event has the name of an event of an enclosing scope, so `:` and `::` triggers of that name name different events.", []string{"event_name", "local_path", "chain_path"}, "", ""},
		{"I_TRANSITION_NEVER_EVENT_TRIGGERED", i, s, "A normal transition has neither an event nor a guard: it is taken whenever it is tried.", []string{"from_path", "to_path"}, "", ""},
		{"W_DEEP_HIERARCHY", w, s, "The state hierarchy is deeper than the threshold (6 by default).", []string{"max_depth", "deepest_path", "actual", "threshold"}, "", ""},
		{"W_LARGE_COMPOSITE", w, s, "A composite has more direct child states than the threshold (12 by default).", []string{"composite_path", "n_children", "actual", "threshold"}, "", ""},
		{"W_HIGH_VAR_TO_LEAF_RATIO", w, s, "The model has more variables per non-pseudo leaf state than the threshold (2.0 by default).", []string{"n_vars", "n_leaf_states", "actual", "threshold"}, "", ""},
		{"W_NAMED_ACTION_SHADOWS_ANCESTOR", w, s, "A named action has the name of a named action of an enclosing state.", []string{"function_name", "inner_state_path", "outer_state_path"}, "", ""},
	}
}

// lintCodes are the codes only `stateproof verify MODEL.fcstm` reports:
// its lints that pyfcstm has no code of the same meaning for. Their Name
// is their Verify name.
func lintCodes() []Code {
	e, w, s := SeverityError, SeverityWarning, BasisStructural
	lint := func(name, sev, check, what string) Code {
		return Code{Name: name, Severity: sev, Basis: s, Description: what, Verify: name, Check: check}
	}
	return []Code{
		lint("FCSTM_INIT_INVALID", e, "FCSTM-I1", "An initial value has no value of its variable's type: a cold start raises on it."),
		lint("FCSTM_DEPTH_LIMIT", e, "FCSTM-L1", "A state is nested deeper than the runtime's stack-depth limit, so every cycle that would enter it raises a limit error."),
		lint("FCSTM_DEAD_PARENT_TRANSITION", w, "FCSTM-L2", "A transition from a composite none of whose children can exit through [*] never fires."),
		lint("FCSTM_SHADOWED_TRANSITION", w, "FCSTM-L2", "A transition written after an unconditional one from the same source to a stoppable leaf never fires: the earlier one is always taken first."),
		lint("FCSTM_PSEUDO_DEAD_END", w, "FCSTM-L2", "A pseudo state has no outgoing transition, so no cycle entering it can come to rest."),
		lint("FCSTM_COMBO_CONSTANT_GUARD", w, "FCSTM-L3", "A guard term of a combo trigger reads no variable and is constant."),
		lint("FCSTM_ANONYMOUS_ABSTRACT", w, "FCSTM-L4", "An abstract action has no name, so no handler can be registered for it and it never calls the host."),
	}
}

// LoadCodes are the load errors inspect reports under pyfcstm's code:
// the loader's own code where it is pyfcstm's, else the one Canonical maps
// the loader's code onto. Inspect fills the refs each carries from the
// syntax tree. Every other load error keeps stateproof's own code
// (docs/fcstm.md lists them) with empty refs.
func LoadCodes() []Code {
	e, s := SeverityError, BasisStructural
	return []Code{
		{"E_DUPLICATE_STATE", e, s, "Two states of one composite have the same name.", []string{"state_name", "parent_path"}, "", ""},
		{"E_DUPLICATE_VAR", e, s, "A variable is defined twice.", []string{"var_name"}, "", ""},
		{"E_PSEUDO_NOT_LEAF", e, s, "A pseudo state has children; pseudo states must be leaves.", []string{"state_path"}, "", ""},
		{"E_DURING_ASPECT_INVALID", e, s, "A during block does not fit its state: before or after on a leaf, or neither on a composite.", []string{"state_path", "state_kind", "aspect"}, "", ""},
		{"E_UNDEFINED_VAR", e, s, "An expression reads a name that is neither a defined variable nor a temporary assigned earlier in its block.", []string{"var_name", "referenced_in"}, "", ""},
		{"E_DUPLICATE_FUNCTION_NAME", e, s, "Two named actions of one state have the same name.", []string{"function_name", "state_path", "stage"}, "", ""},
	}
}
