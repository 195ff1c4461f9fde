package inspect

import "github.com/stateproof/stateproof/internal/inspect/codes"

// The registry lives in package codes, which the lints of verify read as
// well; these names keep inspect's callers in one import.

// Severities, as the registry and the JSON output spell them.
const (
	SeverityError   = codes.SeverityError
	SeverityWarning = codes.SeverityWarning
	SeverityInfo    = codes.SeverityInfo
)

// BasisStructural is the basis of a fact read from the model's shape and
// constant expressions.
const BasisStructural = codes.BasisStructural

// BasisSMT is the basis of a fact Z3 decided (Options.SMT).
const BasisSMT = codes.BasisSMT

// BasisSearch is the basis of a fact an exhaustive search decided
// (Options.Search).
const BasisSearch = codes.BasisSearch

// DocPage is the manual page that describes every code.
const DocPage = codes.DocPage

// Code is one entry of the registry.
type Code = codes.Code

// Codes returns the registry (codes.All), sorted by name.
func Codes() []Code { return codes.All() }

// Lookup returns the registry entry of a code or of an alias of it.
func Lookup(name string) (Code, bool) { return codes.Lookup(name) }

// DocPath is the manual section on code (codes.DocPath).
func DocPath(code string) string { return codes.DocPath(code) }
