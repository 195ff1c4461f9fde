package query

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
)

// Error classes (docs/queries.md).
const (
	ClassParse       = "parse"       // the text does not match the grammar
	ClassInvalid     = "invalid"     // structure or names do not bind
	ClassUnsupported = "unsupported" // valid, but not lowerable in the executable profile
)

// Diagnostic codes. CodeSyntax is the code of every parse error; the others
// are the binding codes of docs/queries.md, plus the few this package adds
// (see doc.go).
const (
	CodeSyntax                  = "syntax"
	CodeQueryShape              = "query_shape"
	CodeTypeMismatch            = "type_mismatch"
	CodeCycleNotAllowed         = "cycle_not_allowed"
	CodeEventNotAllowed         = "event_not_allowed"
	CodeCaseNotAllowed          = "case_not_allowed"
	CodeCalledNotAllowed        = "called_not_allowed"
	CodeCallCountNotAllowed     = "call_count_not_allowed"
	CodeCallWhereAtomNotAllowed = "call_where_atom_not_allowed"
	CodeExplicitFrameSelector   = "explicit_frame_selector"
	CodeFrameSelectorOutOfRange = "frame_selector_out_of_range"
	CodeEventSelectorOutOfRange = "event_selector_out_of_range"
	CodeEventRangeOutOfRange    = "event_range_out_of_range"
	CodeCallStepOutOfRange      = "call_step_out_of_range"
	CodeDuplicateHavocVariable  = "duplicate_havoc_variable"
	CodeUnknownState            = "unknown_state"
	CodeUnknownEvent            = "unknown_event"
	CodeUnknownVariable         = "unknown_variable"
	CodeUnknownCallAction       = "unknown_call_action"
	CodeUnknownNamedRef         = "unknown_named_ref"
	CodeReservedStatePath       = "reserved_state_path"
	CodeCoverPredicate          = "cover_predicate"
	CodeCallStage               = "call_stage"
	CodeCallRole                = "call_role"
	CodeUnsupportedFunctionExpr = "unsupported_function_expr"
	CodeUnsupportedBitwiseExpr  = "unsupported_bitwise_expr"
	CodeUnsupportedShiftExpr    = "unsupported_shift_expr"
	CodeUnsupportedRealModExpr  = "unsupported_real_mod_expr"
	CodeUnsupportedPowerExpr    = "unsupported_pow_expr"
	CodeUnsupportedFairness     = "unsupported_fairness"
	CodeUnsupportedLTL          = "unsupported_ltl"
)

const (
	maxClauseInt   = 1<<31 - 1 // the largest bound, frame, step or window
	maxPowExponent = 64        // the largest constant exponent the encoder expands
)

// Error is a controlled query error: a parse error, an invalid query or an
// unsupported query, with its diagnostic code and position.
type Error struct {
	Class string    // ClassParse, ClassInvalid or ClassUnsupported
	Code  string    // CodeSyntax for parse errors, else a binding code
	File  string    // the query file, "" for inline text
	Pos   expr.Pos  // where the problem is (1-based line and column)
	Span  expr.Span // the offending token or node
	Msg   string    // what was expected and what was found
}

// Error renders "file:line:col: message [code]" (without "file:" for
// inline text).
func (e *Error) Error() string {
	loc := e.Pos.String()
	if e.File != "" {
		loc = e.File + ":" + loc
	}
	return fmt.Sprintf("%s: %s [%s]", loc, e.Msg, e.Code)
}

func newError(class, code, file string, sp expr.Span, format string, args ...any) *Error {
	return &Error{Class: class, Code: code, File: file, Pos: sp.Start, Span: sp, Msg: fmt.Sprintf(format, args...)}
}
