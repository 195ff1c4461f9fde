package z3

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrClosed is wrapped by the error of any call made on a closed Context or
// on an object of a closed Context.
var ErrClosed = errors.New("z3: context is closed")

// ErrorKind classifies an *Error.
type ErrorKind int

// Error kinds. Most mirror Z3's error codes; ErrorInvalidArg is also used
// for misuse the binding detects before calling Z3.
const (
	ErrorException    ErrorKind = iota // internal Z3 exception or other failure
	ErrorSort                          // ill-sorted term (Z3_SORT_ERROR)
	ErrorIndex                         // index out of bounds (Z3_IOB)
	ErrorInvalidArg                    // invalid argument (Z3_INVALID_ARG)
	ErrorParse                         // SMT-LIB2 or numeral parse error (Z3_PARSER_ERROR)
	ErrorInvalidUsage                  // API misuse, e.g. no model (Z3_INVALID_USAGE)
	ErrorMemory                        // out of memory (Z3_MEMOUT_FAIL)
)

func (k ErrorKind) String() string {
	switch k {
	case ErrorException:
		return "exception"
	case ErrorSort:
		return "sort error"
	case ErrorIndex:
		return "index out of bounds"
	case ErrorInvalidArg:
		return "invalid argument"
	case ErrorParse:
		return "parse error"
	case ErrorInvalidUsage:
		return "invalid usage"
	case ErrorMemory:
		return "out of memory"
	}
	return "ErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// Error is a failure reported by Z3 or detected by the binding.
type Error struct {
	Op      string    // the Go operation, e.g. "Add" or "Solver.Check"
	Kind    ErrorKind // classification
	Message string    // Z3's message (or the binding's), trimmed
}

func (e *Error) Error() string {
	return fmt.Sprintf("z3: %s: %s: %s", e.Op, e.Kind, e.Message)
}

func closedError(op string) error {
	return fmt.Errorf("z3: %s: %w", op, ErrClosed)
}

func argError(op, format string, args ...any) error {
	return &Error{Op: op, Kind: ErrorInvalidArg, Message: fmt.Sprintf(format, args...)}
}

func sortError(op, format string, args ...any) error {
	return &Error{Op: op, Kind: ErrorSort, Message: fmt.Sprintf(format, args...)}
}

func newZ3Error(op string, code z3_error_code, msg string) *Error {
	kind := ErrorException
	switch code {
	case z3_SORT_ERROR:
		kind = ErrorSort
	case z3_IOB:
		kind = ErrorIndex
	case z3_INVALID_ARG, z3_INVALID_PATTERN:
		kind = ErrorInvalidArg
	case z3_PARSER_ERROR, z3_NO_PARSER:
		kind = ErrorParse
	case z3_INVALID_USAGE:
		kind = ErrorInvalidUsage
	case z3_MEMOUT_FAIL:
		kind = ErrorMemory
	case z3_EXCEPTION:
		// Z3 4.8.12 reports ill-sorted applications as a generic exception.
		if strings.HasPrefix(msg, "Sort mismatch") {
			kind = ErrorSort
		}
	}
	return &Error{Op: op, Kind: kind, Message: cleanMessage(msg)}
}

// cleanMessage shortens Z3 messages: it drops the list of every legal
// parameter that follows an unknown-parameter error and unwraps the
// (error "...") form of parser messages.
func cleanMessage(msg string) string {
	if i := strings.Index(msg, "\nLegal parameters are:"); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimSpace(msg)
	var lines []string
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, `(error "`); ok {
			line = strings.TrimSuffix(rest, `")`)
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return "unspecified Z3 error"
	}
	return strings.Join(lines, "; ")
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
