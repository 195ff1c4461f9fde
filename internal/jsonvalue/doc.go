// Package jsonvalue parses JSON into a position-carrying value tree and
// writes the canonical serialisation that model hashes are computed over.
//
// The standard library's encoding/json is not used for model input because
// the model contract needs what it hides: duplicate object keys must be
// reported (not silently resolved to the last one), numbers must be read as
// IEEE-754 doubles exactly as JavaScript reads them, key order must survive
// for error messages, and a lone UTF-16 surrogate escape must be refused
// rather than replaced. The canonical writer follows ECMAScript
// JSON.stringify for strings and Number::toString for numbers, with object
// keys sorted by UTF-16 code units, so hashes agree with the TypeScript
// reference engine byte for byte.
package jsonvalue
