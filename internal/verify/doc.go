// Package verify runs the single-model checks of `stateproof verify` over a
// validated JSON model: the structural checks S1–S8, the adversarial probes
// A1–A15 (A15, the LTL check, only with an ltl invariant) and, in
// RunComparison, the before/after checks D1–D4; and it assembles the
// logicprobe/verify/v1 report.
//
// Every guard-aware check explores the concrete runtime of package runtime
// through package explore. A search that stops at its cap yields an
// *_UNDECIDED finding and sets summary.truncated; it never passes.
package verify
