package runtime

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// Class classifies an Error.
type Class string

// Error classes. Every class but Init is raised by Cycle and leaves the
// runtime unchanged; Init is raised by New.
const (
	ClassEvent      Class = "event"      // an input event that does not resolve
	ClassExpression Class = "expression" // an expression without a value (division by zero, bad shift, …) or of the wrong type
	ClassWriteback  Class = "writeback"  // a value that does not fit its variable (a non-integral float into an int)
	ClassHandler    Class = "handler"    // an abstract handler failed (ErrorMode Raise)
	ClassLimit      Class = "limit"      // a search limit: steps, stack depth, total work
	ClassInit       Class = "init"       // a bad initial state, initial variable or initialiser
)

// Error is a runtime failure. Pos locates the statement, guard or
// declaration involved when there is one.
type Error struct {
	Class   Class
	Message string
	Pos     model.Pos
	Cause   error // the expr error, the handler's error; may be nil
}

func (e *Error) Error() string {
	if e.Pos.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Pos.File, e.Pos.Line, e.Pos.Col, e.Message)
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

func errorf(class Class, pos model.Pos, cause error, format string, args ...any) *Error {
	return &Error{Class: class, Message: fmt.Sprintf(format, args...), Pos: pos, Cause: cause}
}
