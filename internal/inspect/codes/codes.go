// Package codes is the one registry of the diagnostic codes stateproof
// reports on FCSTM models: `stateproof inspect` (pyfcstm's code names),
// the lints of `stateproof verify MODEL.fcstm` (FCSTM_... names), the
// language server, SARIF and the MCP tools all read a code's severity,
// description and manual section from here, so that no two of them can
// disagree.
//
// Where a lint of verify reports what a pyfcstm code means, the two are
// one entry: the pyfcstm code is its Name and verify's code its Verify
// name, which verify's report keeps (its codes are part of the
// logicprobe/verify/v1 contract). The package imports nothing of the
// analyzers, so that both package inspect and package lint can use it.
package codes

import (
	"sort"
	"strings"
)

// Severities, as the registry, the JSON documents and SARIF's levels
// (after mapping) spell them.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Bases: how a diagnostic was decided. Structural facts read the model's
// shape and constant expressions only; nothing is guessed from a search
// that stopped early.
const (
	BasisStructural = "structural"
	BasisSMT        = "smt"    // decided by Z3 over the integers (docs/inspect.md#smt-backed-codes); reported with --smt only
	BasisSearch     = "search" // decided by an exhaustive explicit search (docs/inspect.md#search); reported with --search only
)

// DocPage is the manual page that describes every code.
const DocPage = "docs/inspect.md"

// Code is one entry of the registry.
type Code struct {
	Name        string // the code `stateproof inspect` reports: pyfcstm's name, or verify's for a lint pyfcstm has no code for
	Severity    string
	Basis       string
	Description string   // stateproof's own one-line description
	Refs        []string // the refs fields every inspect diagnostic of this code carries

	// Verify is the code `stateproof verify MODEL.fcstm` reports the same
	// problem under, "" when verify does not report it. A suppression or
	// filter naming it matches Name too.
	Verify string
	// Check is the verify check that reports Verify (FCSTM-L1, ...).
	Check string
}

// Inspected reports whether `stateproof inspect` reports the code (every
// code but the lints only verify has).
func (c Code) Inspected() bool { return c.Name != c.Verify }

// All returns the registry, sorted by name. The slice is new on every
// call, so callers may keep or change it.
func All() []Code {
	cs := append(inspectCodes(), lintCodes()...)
	cs = append(cs, LoadCodes()...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs
}

// Lookup returns the entry of a code, by its name or by an alias of it:
// verify's name for it, or a deprecated pyfcstm alias.
func Lookup(name string) (Code, bool) {
	name = Canonical(name)
	for _, c := range All() {
		if c.Name == name {
			return c, true
		}
	}
	return Code{}, false
}

// Canonical maps an alias onto the code it stands for (itself when it is
// none): pyfcstm's deprecated W_DEADLOCK_LEAF, verify's name of a problem
// inspect reports under pyfcstm's, and the loader's code of a load error
// inspect reports under pyfcstm's, so that a suppression or a filter
// written with either name keeps working.
func Canonical(name string) string {
	switch name {
	case "W_DEADLOCK_LEAF":
		return "W_LEAF_NO_OUTGOING_TRANSITION"
	case "E_DURING_LEAF", "E_DURING_COMPOSITE": // the loader's codes of pyfcstm's load errors (LoadCodes)
		return "E_DURING_ASPECT_INVALID"
	case "E_DUPLICATE_ACTION":
		return "E_DUPLICATE_FUNCTION_NAME"
	case "E_UNKNOWN_VAR":
		return "E_UNDEFINED_VAR"
	}
	if strings.HasPrefix(name, "FCSTM_") {
		for _, c := range inspectCodes() {
			if c.Verify == name {
				return c.Name
			}
		}
	}
	return name
}

// DocPath is the place in the repository's manual that describes code:
// docs/inspect.md and the anchor of the code's own section (a heading that
// is the code alone, so its anchor is the code in lower case, as GitHub
// writes heading anchors); verify's name of a shared code points at the
// shared section. A load error, and a code the registry does not hold,
// point at the section on load errors. The CLI's SARIF, the language
// server and the MCP tool prefix it with their docs base URL.
func DocPath(code string) string {
	if c, ok := Lookup(code); ok && !isLoadCode(c.Name) {
		return DocPage + "#" + strings.ToLower(c.Name)
	}
	return DocPage + "#load-errors"
}

func isLoadCode(name string) bool {
	for _, c := range LoadCodes() {
		if c.Name == name {
			return true
		}
	}
	return false
}
