package sts

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
)

// Sentinel location ids (docs/architecture.md). -2 is retired and never used.
const (
	InitID       = -3 // cold start: nothing entered yet
	TerminatedID = -1 // the machine has terminated
)

// Sort is the type of a variable.
type Sort uint8

// Variable sorts.
const (
	Int Sort = iota
	Real
	Bool
)

func (s Sort) String() string {
	switch s {
	case Real:
		return "real"
	case Bool:
		return "bool"
	}
	return "int"
}

// Source points at the text a piece of the system came from.
type Source struct {
	File      string
	Line, Col int // 1-based; 0 when unknown
	// EndLine and EndCol end the span (1-based, end-exclusive) when the
	// front end knows it; 0 otherwise. Explanations quote the exact span.
	EndLine, EndCol int
	Path            string // JSON path or model path of the element, e.g. "transitions[2].guard"
	Excerpt         string // the exact text, when the front end has it
}

func (s Source) String() string {
	var b strings.Builder
	if s.File != "" {
		b.WriteString(s.File)
	}
	if s.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", s.Line, s.Col)
	}
	if s.Path != "" {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString(s.Path)
	}
	return b.String()
}

// Location is a stable state the machine can rest in between steps.
type Location struct {
	ID   int
	Name string // the state id (JSON) or dotted path (FCSTM)
	// Ancestors lists the composite states containing it, outermost first
	// (FCSTM); active("P") holds for a location named P or with P among
	// its ancestors.
	Ancestors []string
	// Terminal marks a location where terminated() holds (a JSON state
	// declared terminal; FCSTM uses the TerminatedID sentinel instead).
	Terminal bool
	Src      Source
}

// Var is a persistent variable.
type Var struct {
	Name string
	Sort Sort
	Init expr.Expr // the declaration initialiser
	Src  Source
}

// Event is a boolean input of every step.
type Event struct {
	Name string // the event name (JSON) or dotted path (FCSTM)
	Src  Source
}

// CaseKind classifies a case (docs/fcstm.md, docs/architecture.md).
type CaseKind uint8

// Case kinds.
const (
	Transition CaseKind = iota
	Fallback
	Initial
	Absorb
	Delta // the machine stays put: a semantic delta, or a JSON stutter
	// Error is a situation in which the runtime raises (a division by
	// zero, a non-integral value written back to an int variable). Its
	// antecedent takes part in priorities, but it is never selected:
	// error steps are invisible to queries (docs/fcstm.md, known gaps).
	Error
)

func (k CaseKind) String() string {
	return [...]string{"transition", "fallback", "initial", "absorb", "delta", "error"}[k]
}

// CondMode is what a Cond requires of its expression.
type CondMode uint8

// Condition modes. Holds and Fails include the expression's definedness.
const (
	Holds     CondMode = iota // defined and true
	Fails                     // defined and false
	Defined                   // defined (its value does not matter)
	Undefined                 // its evaluation raises
)

// Cond is a condition a case reads part-way through its effects: Expr is
// evaluated over the variables (and temporaries) after Effects[:After].
// FCSTM guards read the values left by the action blocks before them.
type Cond struct {
	After int
	Expr  expr.Expr
	Mode  CondMode
	Src   Source
}

// EventLit requires an input event present (Present) or absent.
type EventLit struct {
	Event   int
	Present bool
}

// Effect assigns Value (over the variables as updated so far in the case)
// to Var, or to the case-local temporary Temp when Temp is set. Effects run
// in order. A value is stored as computed: an Int variable may hold a real
// value between effects, and the case must store an integral Int value by
// its last effect (FCSTM writes floor(x) back after checking floor(x) == x).
type Effect struct {
	Var   int
	Temp  string
	Value expr.Expr
	// Bind gives the temporary a constant of its own, defined equal to
	// its value, instead of substituting the value wherever it is read:
	// a shared choice reads each of its temporaries several times, and a
	// chain of them would otherwise grow exponentially when printed.
	Bind bool
	Src  Source
}

// Call records an abstract action the case executes (an onEntry/onExit
// action of a JSON model; an FCSTM abstract lifecycle call).
type Call struct {
	Action     string
	Stage      string // "enter", "during", "exit"
	Role       string // state_enter, state_exit, transition_effect, ...
	State      string
	ActiveLeaf string
	NamedRef   string
	// After is the number of effects already applied when the call runs:
	// its snapshot is the variables after Effects[:After].
	After int
	Src   Source
}

// Case is one way a step from its source can go.
type Case struct {
	Kind   CaseKind
	Label  string // stable: SOURCE::kind::TARGET::ordinal
	Source int
	Target int
	// Guard is the enabling condition over pre-state variables; nil is true.
	Guard    expr.Expr
	GuardSrc Source
	// Conds are further enabling conditions read between effects.
	Conds  []Cond
	Events []EventLit
	// Priority lists indexes (into the same source's cases) of cases that
	// must be disabled for this one to be selected: their whole antecedent
	// (location, guard, conditions, events and their own priorities) is
	// false.
	Priority []int
	Effects  []Effect
	Calls    []Call
	Delta    bool // the step is a semantic delta (nothing happened)
	Gamma    bool // FCSTM fallback gamma flag
	Consumes []int
	Src      Source
	// Origin identifies the front-end element the case came from (a JSON
	// transition index; -1 for a generated case such as a stutter). The
	// replayer uses it to follow the same branch of a nondeterministic step.
	Origin int
}

// A Test is a point of a cycle from a source where the runtime tests
// whether an event is present (FCSTM: a candidate transition on the
// event, reached by the inner loop). An event is read present, taken in
// the sense of fairness, when it is present and the cycle reaches one of
// its tests (docs/queries.md#fairness).
type Test struct {
	Event int
	// Path is what the inner loop requires to get here, as a case's
	// antecedent without priorities: the conditions read, the events
	// found present and the effects run on the way. Only its Source,
	// Guard, Conds, Events and Effects are meaningful.
	Path Case
	// Before is the number of the source's cases the inner loop may
	// complete before it gets here: it gets here when its path holds and
	// none of Cases[source][:Before] is selected (an error case counts:
	// the cycle raises there).
	Before int
}

// System is a symbolic transition system.
type System struct {
	Name string // usually the model file
	// Format names the front end the system came from ("json", "fcstm"):
	// explanations publish it as the kind of a model-side source.
	Format    string
	Locations []Location
	Vars      []Var
	Events    []Event
	// Cases holds, per source location id, its ordered cases. The key is
	// a location id or a sentinel.
	Cases map[int][]Case
	// Start is the location of a cold start (a JSON model's init state,
	// or InitID for FCSTM).
	Start int
	// StartSrc is where the model declares its cold start, when the front
	// end knows it (FCSTM: the root state, which the first cycle enters);
	// explanations locate the initial.target group there.
	StartSrc Source
	// StartActive names the state active() holds for at the init
	// sentinel: FCSTM's root, since a fresh machine reads as its root
	// before the first cycle enters it (pyfcstm does the same); "" when
	// active() holds for nothing there.
	StartActive string
	// OneEventPerStep makes exactly one input event true at every step
	// (JSON semantics); otherwise events are free inputs (FCSTM).
	OneEventPerStep bool
	// Tests lists, per source, the event tests of its cycle in the order
	// the inner loop meets them. A system whose events are free inputs
	// needs them for fairness ("enabled" and "taken"); nil when the front
	// end does not record them (a JSON model needs none: a step takes
	// the one event it consumes).
	Tests map[int][]Test
	// StartOnly makes the first step have only the cases of the start
	// source, and later steps only those of the recurrent sources: every
	// source not in Entry, plus the start (whose delta case leaves the
	// frame on it). FCSTM counts its cases so (docs/fcstm.md). Otherwise
	// every step has every case (JSON).
	StartOnly bool
	// Entry lists the sources only a start occupies: the init sentinel
	// and the states a hot start may begin in without a cycle ending
	// there (FCSTM composites).
	Entry map[int]bool
}

// StepSources returns the sources whose cases step i has, for a run that
// starts at start, in Sources order.
func (s *System) StepSources(i, start int) []int {
	all := s.Sources()
	if !s.StartOnly {
		return all
	}
	out := all[:0]
	for _, src := range all {
		if (i == 0 && src == start) || (i > 0 && (!s.Entry[src] || src == start)) {
			out = append(out, src)
		}
	}
	return out
}

// Location returns the location with the given id, or nil.
func (s *System) Location(id int) *Location {
	if id >= 0 && id < len(s.Locations) {
		return &s.Locations[id]
	}
	return nil
}

// LocationByName returns the location named name, or nil.
func (s *System) LocationByName(name string) *Location {
	for i := range s.Locations {
		if s.Locations[i].Name == name {
			return &s.Locations[i]
		}
	}
	return nil
}

// VarIndex returns the index of the variable named name, or -1.
func (s *System) VarIndex(name string) int {
	for i, v := range s.Vars {
		if v.Name == name {
			return i
		}
	}
	return -1
}

// EventIndex returns the index of the event named name, or -1.
func (s *System) EventIndex(name string) int {
	for i, e := range s.Events {
		if e.Name == name {
			return i
		}
	}
	return -1
}

// Sources returns the case sources in a stable order: sentinels first,
// then location ids ascending.
func (s *System) Sources() []int {
	var out []int
	for _, id := range []int{InitID, TerminatedID} {
		if _, ok := s.Cases[id]; ok {
			out = append(out, id)
		}
	}
	for i := range s.Locations {
		if _, ok := s.Cases[i]; ok {
			out = append(out, i)
		}
	}
	return out
}

// CaseCount is the number of cases over all sources: K_i of the symbol
// count, which is the same at every step for a system without macro-step
// expansion by step.
func (s *System) CaseCount() int {
	n := 0
	for _, cs := range s.Cases {
		n += len(cs)
	}
	return n
}

// LocationName renders a location id, sentinels included.
func (s *System) LocationName(id int) string {
	switch id {
	case InitID:
		return "__init__"
	case TerminatedID:
		return "__terminate__"
	}
	if l := s.Location(id); l != nil {
		return l.Name
	}
	return fmt.Sprintf("<location %d>", id)
}
