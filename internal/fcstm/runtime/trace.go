package runtime

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// RoleEffect is the role of a transition effect in an Action record; the
// other roles are the model's action roles.
const RoleEffect model.ActionRole = "effect"

// Exit is the name an Action record gives to [*] in From and To.
const Exit = "[*]"

// Action is one executed action of a committed cycle, in execution order.
// Only actions that do something appear: concrete actions with
// statements, refs, abstract actions, and effects with statements.
type Action struct {
	Role     model.ActionRole
	State    string // the declaring state (for an effect: the composite owning the transition)
	Name     string // the action's own name; "" when anonymous
	Ref      string // for a ref: the path of the resolved action
	Abstract bool   // the resolved action is abstract
	Leaf     string // aspects: the leaf they run for
	From, To string // effects: child names, or Exit
}

// Stage is when an abstract call happens: "enter", "during" or "exit".
type Stage string

// Stages of an abstract call (aspects and plain during before/after are
// "during").
const (
	StageEnter  Stage = "enter"
	StageDuring Stage = "during"
	StageExit   Stage = "exit"
)

// AbstractCall is the read-only context of one call of a named abstract
// action (docs/fcstm.md, "Abstract actions").
type AbstractCall struct {
	Action     string           // the abstract action reached, after following refs
	Stage      Stage            // the stage of the call site
	Role       model.ActionRole // the slot of the call site (enter, during_before, aspect_after, …)
	State      string           // the state executing the call site (the leaf, for an aspect)
	ActiveLeaf string           // the active leaf; the composite itself while it is entered, left or at a boundary
	NamedRef   string           // the call site's own path when it is a named ref; "" otherwise
	Vars       map[string]expr.Value
}

// Handler implements abstract actions. It is called only for committed
// cycles, after the search, in call order; it cannot change variables.
type Handler interface {
	Handle(call *AbstractCall) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(call *AbstractCall) error

// Handle calls f.
func (f HandlerFunc) Handle(call *AbstractCall) error { return f(call) }

// ErrorMode says what a failing handler does to its cycle.
type ErrorMode uint8

// Error modes.
const (
	Raise ErrorMode = iota // the cycle fails with a ClassHandler error and changes nothing
	Log                    // the error is recorded in Cycle.HandlerErrors and the cycle commits
)

// Cycle is the trace of one Cycle call.
type Cycle struct {
	Events     []string // the resolved input events, without duplicates, in input order
	Consumed   []string // events of the transitions taken, in order, without duplicates
	Unconsumed []string // Events minus Consumed
	Delta      bool     // no continuation reached a stoppable leaf or the end: nothing changed
	State      string   // the current state after the cycle ("" once ended)
	Ended      bool
	Actions    []Action
	Calls      []AbstractCall
	// HandlerErrors holds handler failures under ErrorMode Log.
	HandlerErrors []error
}
