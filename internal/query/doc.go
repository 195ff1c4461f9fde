// Package query is the FBMCQ query language of the bounded model checker
// (docs/queries.md): its parser, its binder against a symbolic transition system
// (package sts), and its canonical printer.
//
// # Parsing
//
// Parse reads the clause grammar of docs/queries.md (init, assume, check) and
// hands every expression to package expr, whose Parser is also the token
// cursor: there is one expression parser in stateproof. The expression
// parser accepts any name(args) call and any word; atoms.go narrows that
// to the FBMCQ grammar: the atoms var, active, terminated, event, case,
// called and call_count with their argument shapes (frame selectors are
// current or an integer, call filter arguments are strings, step
// selectors, names or a where condition), no query keyword as a bare
// variable (except cycle, the frame index; var("state") reaches a variable
// named like a keyword), and no string outside an atom argument. Violations
// are parse errors.
//
// # Binding
//
// Bind checks a parsed query against an *sts.System in a fixed order: the
// bound (N >= 1, N <= BindOptions.MaxBound when set) and body shape; then
// init, the assumptions and the check clause in source order (names,
// selectors, contexts, call filters, types); then, only if everything
// binds, the executable profile. The first problem is returned as an
// *Error. On success q.Calls holds the bound CallFilter of every called and
// call_count atom and q.Check.CaseLabel the cover label.
//
// Names: active("S") and the state=/active_leaf= dimensions accept a
// location name or any of its ancestors; init state("S") needs a location;
// events and variables are the system's; a bare identifier or var("x") is
// a variable of sort Int, Real or Bool. Actions and named refs are those of
// the call records of the system's cases.
//
// # Errors
//
// Every error is an *Error with a Class (parse, invalid, unsupported), a
// Code, a 1-based Pos and a message naming what was expected and what was
// found; Error() renders "file:line:col: message [code]". Parse errors
// have code syntax. The binding codes are those of docs/queries.md. Where the
// reference is silent this package decides:
//
//   - type_mismatch (invalid): a typing error (numeric and boolean mixed,
//     a numeric condition). The reference grammar separates the sorts
//     syntactically; expr separates them in Check, after names are known.
//   - call_where_atom_not_allowed (invalid): active(...) or terminated()
//     in a call filter's where clause (event, case, called, call_count keep
//     their own *_not_allowed codes there).
//   - query_shape also covers: a bound below 1 or above MaxBound, a window
//     below 1, a trigger body outside response (or a plain body in
//     response), duplicate or empty at_most_one lists, and call filter
//     structure (argument order, a dimension given twice, an unknown
//     dimension, a value of the wrong form).
//   - cover_predicate (not query_shape) for a cover body that is not a
//     naked case atom, as in docs/queries.md.
//   - An integer frame selector on active/terminated/case is
//     explicit_frame_selector when it is a frame 0..N, and
//     frame_selector_out_of_range when it is beyond N; assume at k with
//     k > N is frame_selector_out_of_range; event(..., k) in a trigger is
//     explicit_frame_selector.
//   - Unsupported forms have the codes unsupported_function_expr (sin cos
//     tan asin acos atan sinh cosh tanh asinh acosh atanh cbrt exp log
//     log10 log2 log1p), unsupported_bitwise_expr (& | ^),
//     unsupported_shift_expr (<< >>), unsupported_real_mod_expr (% with a
//     float operand) and unsupported_pow_expr (** whose exponent is not an
//     integer literal 0..64, the encoder's limit).
//
// # Other decisions
//
//   - An omitted call step selector is the anchor step (relative 0..0);
//     Bind fills a CallFilter for every call atom, so called() with no
//     arguments is "any call at the anchor step".
//   - Relative call step offsets are capped at ±(2^31-1); they are clipped
//     to [0, N) anyway. An absolute range a..b with a > b is accepted and
//     selects no step.
//   - Integers in clause positions (bound, frame, window, event steps) are
//     decimal or 0x hex, at most 2^31-1; `a .. b` may have spaces on either
//     side of the dots.
//   - `init cold;` is kept distinct from no init clause (Init != nil), so
//     that it prints back.
//
// # Printing
//
// Format prints canonical text (docs/queries.md): one clause per line, each
// ending ";\n", expressions through expr.Format, event assumptions with
// "==" only, havoc names bare when they are plain identifiers. Parsing the
// output gives an Equal query and printing it again gives the same text;
// FuzzParse checks both. FormatJSON prints the canonical JSON form.
package query
