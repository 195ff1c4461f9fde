package query

import (
	"github.com/stateproof/stateproof/internal/expr"
)

// Query is one parsed FBMCQ query (docs/queries.md).
type Query struct {
	File    string // for messages; "" for inline text
	Text    string // the source text
	Init    *Init  // nil: cold start (no init clause)
	Assumes []Assume
	Check   Check
	// Calls holds the bound filter of every called(...)/call_count(...)
	// atom in the query, filled by Bind.
	Calls map[*expr.AtomCall]*CallFilter
}

// CallFilter is a bound call filter (docs/queries.md). Empty strings mean the
// dimension is not constrained.
type CallFilter struct {
	Action     string
	Steps      CallSteps
	Stage      string
	Role       string
	State      string
	ActiveLeaf string
	NamedRef   *string // nil: any; pointer to "": calls without a named ref
	Where      expr.Expr
}

// CallSteps is the step window of a call filter around its anchor step a:
// All, or the inclusive range [Lo, Hi] where each end is absolute or
// relative to the anchor (a missing end is the anchor itself).
type CallSteps struct {
	All          bool
	Lo, Hi       int
	LoRel, HiRel bool // the end is anchor + value
}

// Window returns the inclusive steps of the window around anchor, clipped
// to [0, n).
func (s CallSteps) Window(anchor, n int) (lo, hi int) {
	if s.All {
		return 0, n - 1
	}
	lo, hi = s.Lo, s.Hi
	if s.LoRel {
		lo += anchor
	}
	if s.HiRel {
		hi += anchor
	}
	return max(lo, 0), min(hi, n-1)
}

// InitMode is how frame 0 is chosen (docs/queries.md).
type InitMode uint8

// Initialisation modes.
const (
	Cold InitMode = iota
	State
	Terminated
)

func (m InitMode) String() string { return [...]string{"cold", "state", "terminated"}[m] }

// Name is a name written in the query, with its span.
type Name struct {
	Name string
	Span expr.Span
}

// Init is the init clause.
type Init struct {
	Mode     InitMode
	State    Name   // Mode == State
	HavocAll bool   // havoc *
	Havoc    []Name // havoc { a, "b" }
	Where    expr.Expr
	Span     expr.Span
}

// AssumeKind is the family of an assumption (docs/queries.md).
type AssumeKind uint8

// Assumption families.
const (
	AssumeAlways AssumeKind = iota
	AssumeAt
	AssumeEvent
	AssumeCardinality
)

// Assume is one assume clause.
type Assume struct {
	Kind  AssumeKind
	Cond  expr.Expr // Always, At
	Frame int       // At
	Event Name      // Event
	// Steps selects the steps of an event assumption: All, or the
	// inclusive range Lo..Hi (Lo == Hi for a single step).
	Steps StepRange
	Value bool // Event, after normalising != (docs/queries.md)
	// Cardinality: Any, or at most one of Pool.
	Any  bool
	Pool []Name
	Span expr.Span
	// Index is the position among the query's assumptions, for group ids
	// (assumption.0000...).
	Index int
	// FrameSpan is the span of the frame index (At); StepsSpan the span of
	// the event selector (Event). For diagnostics only.
	FrameSpan, StepsSpan expr.Span
}

// StepRange is an event selector: `*`, `k` or `a..b`.
type StepRange struct {
	All    bool
	Lo, Hi int
	Range  bool // written as a..b (not All, not a single k)
}

// Kind is the property kind of the check clause.
type Kind uint8

// Property kinds (docs/queries.md).
const (
	Reach Kind = iota
	Forbid
	Invariant
	MustReach
	ExistsAlways
	Response
	Cover
	// LTL is `check ltl: FORMULA;`, a stateproof extension decided by
	// verify on FCSTM models over every run (docs/queries.md#ltl).
	LTL
)

var kindNames = [...]string{"reach", "forbid", "invariant", "must_reach", "exists_always", "response", "cover", "ltl"}

func (k Kind) String() string { return kindNames[k] }

// Polarity says what a satisfying model means for a kind.
type Polarity uint8

// Polarities.
const (
	Witness        Polarity = iota // SAT finds the requested behaviour
	Counterexample                 // SAT finds a violation
)

func (p Polarity) String() string {
	if p == Witness {
		return "witness"
	}
	return "counterexample"
}

// Polarity of the kind.
func (k Kind) Polarity() Polarity {
	switch k {
	case Reach, ExistsAlways, Cover:
		return Witness
	}
	return Counterexample
}

// Check is the check clause.
type Check struct {
	Kind  Kind
	Bound int
	// Body is the frame-local condition (reach, forbid, invariant,
	// must_reach, exists_always).
	Body expr.Expr
	// Response: trigger Trigger -> within Window Target.
	Trigger, Target expr.Expr
	Window          int
	// Cover: the case label of the naked case(...) atom, set by Bind.
	CaseLabel string
	Span      expr.Span
	// BoundSpan and WindowSpan locate N and W, for diagnostics.
	BoundSpan, WindowSpan expr.Span
	// Fair lists the weakly fair events of a `fair { "e", ... }` clause
	// (a stateproof extension, docs/queries.md#fairness): a counterexample
	// must then be a fair lasso. nil: no clause.
	Fair []Name
	// FairAll is `fair *`: every event of the model is weakly fair.
	FairAll bool
	// FairSpan locates the clause, for diagnostics.
	FairSpan expr.Span
	// Strong lists the strongly fair events of an ltl check's `strong {
	// "e", ... }` clause; StrongAll is `strong *` (docs/queries.md#ltl).
	Strong     []Name
	StrongAll  bool
	StrongSpan expr.Span
	// Formula is an ltl check's formula as written, in the LTL syntax of
	// docs/liveness.md#ltl with FBMCQ's atoms; FormulaSpan locates it.
	// The query package does not read it: the deciding engine parses it
	// against the model.
	Formula     string
	FormulaSpan expr.Span
}
