// Package report holds the report contracts stateproof emits and renders
// them as JSON (stable key order, ECMAScript number formatting, no HTML
// escaping) and as text a person reads top to bottom.
//
// It knows nothing about engines: engines fill Checks and Findings, and
// this package derives everything that follows from them — summary counts,
// verdict, verdictReason and nextSteps — so that two engines can never
// disagree about what a set of findings means.
package report
