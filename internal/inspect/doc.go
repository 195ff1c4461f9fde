// Package inspect reports design-health diagnostics on an FCSTM model:
// states no run can enter, events nothing triggers, variables that never
// influence a decision, constant guards, self-assignments, numeric
// hazards of the C/C++ targets. Each diagnostic carries a stable code (the
// names pyfcstm's `inspect` uses, so a user's filters and suppressions
// keep working), a severity, a span, the basis it was decided on and a
// refs payload with pyfcstm's field names.
//
// The analyzers read the constructed model (package model); where a
// concept already has an implementation (structural reachability,
// constant guards in package lint) they call it rather than keep a second
// one that could disagree. The codes, what each means and which ones are
// not reported yet are in docs/inspect.md.
package inspect
