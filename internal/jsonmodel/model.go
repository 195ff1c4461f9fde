package jsonmodel

import (
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/ltl"
)

// Model is a validated schema-v1 model. Slices keep model order; optional
// numbers are pointers so "absent" stays distinguishable from zero.
type Model struct {
	Init             string
	States           []State
	Transitions      []Transition
	Variables        []Variable
	Invariants       []Invariant
	ConcurrentPairs  [][2]string
	BoundaryChecks   []BoundaryCheck
	ResourcePairs    []ResourcePair
	IdempotentEvents []string
	TickEvents       []string
	Narrative        *Narrative
	Fairness         *Fairness // nil: no fairness block, every path counts

	// Raw is the parsed input, kept for hashing and for echoes.
	Raw *jsonvalue.Value
}

// State is one entry of `states`.
type State struct {
	ID       string
	Terminal bool
	OnEntry  []string
	OnExit   []string
	MaxTicks *int64
}

// Transition is one entry of `transitions`. Index is its position in the
// model's array, which findings quote.
type Transition struct {
	Index   int
	From    string
	Event   string
	To      string
	Guard   *Guard // nil: the default branch of its (from, event) group
	Updates []Update
	Cost    float64 // 1 when absent
	HasCost bool
	Weight  float64 // 1 when absent
}

// VarKind is the type of a model variable.
type VarKind uint8

// The variable kinds of schema v1.
const (
	Integer VarKind = iota
	Boolean
)

func (k VarKind) String() string {
	if k == Boolean {
		return "boolean"
	}
	return "integer"
}

// Variable is one entry of `variables`. Boolean values are held as 0 and 1
// so the runtime can treat every variable as one machine word.
type Variable struct {
	Name      string
	Kind      VarKind
	Init      int64
	Min, Max  *int64
	Monotonic string // "", "inc" or "dec"
}

// GuardKind tells which of the four guard shapes a node has.
type GuardKind uint8

// The guard shapes.
const (
	GuardLeaf GuardKind = iota
	GuardAll
	GuardAny
	GuardNot
)

// Guard is a guard node. A leaf compares Variable with Value using Op
// (booleans as 0/1); All, Any and Not combine Children.
type Guard struct {
	Kind     GuardKind
	Variable string
	Op       string
	Value    int64
	Children []*Guard
}

// Update is one entry of a transition's `updates`, with its default value
// filled in (inc/dec 1, set 0).
type Update struct {
	Variable string
	Op       string // "inc", "dec" or "set"
	Value    int64
}

// Fairness is the validated `fairness` block, a schema-v1 extension of
// stateproof's (logicprobe has none). Weak and Strong list events in the
// order written; WeakAll is the shorthand "weak": "*" (every event of the
// alphabet, which Weak then holds sorted).
type Fairness struct {
	Weak    []string
	Strong  []string
	WeakAll bool
}

// Invariant kinds.
const (
	NeverStates      = "never-states"
	VarInRange       = "var-in-range"
	EventBeforeState = "event-before-state"
	LeadsTo          = "leads-to"
	Sequence         = "sequence"
	Atomicity        = "atomicity"
	Budget           = "budget"
	Probability      = "probability"
	LTL              = "ltl"
)

// Invariant is one entry of `invariants`; which fields are meaningful
// depends on Kind.
type Invariant struct {
	Index       int
	ID          string
	Description string
	Kind        string

	States   []string     // never-states
	Variable string       // var-in-range
	Min, Max *int64       // var-in-range
	When     *When        // var-in-range
	Event    string       // event-before-state
	State    string       // event-before-state
	From     string       // leads-to
	To       []string     // leads-to (one element when written as a string)
	ToIsList bool         // leads-to: `to` was written as an array
	Events   []string     // sequence, atomicity
	Commit   string       // atomicity
	Rollback string       // atomicity, "" when absent
	Budget   float64      // budget
	Target   string       // probability
	Op       string       // probability
	P        float64      // probability
	Formula  string       // ltl, as written
	LTL      *ltl.Formula // ltl, parsed

	// Raw is the invariant object as written, without `_` keys; findings
	// echo it as evidence.
	Raw *jsonvalue.Value
}

// When is the scope of a var-in-range invariant: a state, or a guard over
// the other variables.
type When struct {
	State string
	Guard *Guard
}

// BoundaryCheck is one entry of `boundaryChecks`.
type BoundaryCheck struct {
	Variable string
	Values   []int64
}

// ResourcePair is one entry of `resourcePairs`.
type ResourcePair struct {
	Resource, AcquireEvent, ReleaseEvent, FailEvent string
}

// Narrative is the validated `narrative` block. Raw is echoed unchanged.
type Narrative struct {
	States    map[string]string
	Events    map[string]string
	Scenarios []Scenario
	Raw       *jsonvalue.Value
}

// Scenario describes one (from, event) group in words.
type Scenario struct {
	From, Event, Text string
}

// Alphabet returns the distinct transition events sorted by UTF-16 code
// units, the iteration order every check uses.
func (m *Model) Alphabet() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range m.Transitions {
		if !seen[t.Event] {
			seen[t.Event] = true
			out = append(out, t.Event)
		}
	}
	jsonvalue.SortUTF16(out)
	return out
}

// StateIndex returns the position of each state id in States.
func (m *Model) StateIndex() map[string]int {
	idx := make(map[string]int, len(m.States))
	for i, s := range m.States {
		idx[s.ID] = i
	}
	return idx
}

// VariableByName returns the declared variable called name, or nil.
func (m *Model) VariableByName(name string) *Variable {
	for i := range m.Variables {
		if m.Variables[i].Name == name {
			return &m.Variables[i]
		}
	}
	return nil
}

// Vars returns the variable names mentioned by a guard, in first-use order
// without repeats.
func (g *Guard) Vars() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(*Guard)
	walk = func(n *Guard) {
		if n == nil {
			return
		}
		if n.Kind == GuardLeaf {
			if !seen[n.Variable] {
				seen[n.Variable] = true
				out = append(out, n.Variable)
			}
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(g)
	return out
}

// Eval evaluates the guard with lookup giving each variable's value.
func (g *Guard) Eval(lookup func(name string) int64) bool {
	switch g.Kind {
	case GuardLeaf:
		return Compare(lookup(g.Variable), g.Op, g.Value)
	case GuardAll:
		for _, c := range g.Children {
			if !c.Eval(lookup) {
				return false
			}
		}
		return true
	case GuardAny:
		for _, c := range g.Children {
			if c.Eval(lookup) {
				return true
			}
		}
		return false
	case GuardNot:
		return !g.Children[0].Eval(lookup)
	}
	return false
}

// Compare applies a guard comparison operator.
func Compare(x int64, op string, c int64) bool {
	switch op {
	case "==":
		return x == c
	case "!=":
		return x != c
	case "<":
		return x < c
	case "<=":
		return x <= c
	case ">":
		return x > c
	case ">=":
		return x >= c
	}
	return false
}
