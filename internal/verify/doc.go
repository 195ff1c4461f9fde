// Package verify runs the single-model checks of `stateproof verify` over a
// validated JSON model: the structural checks S1–S8 (and, as they land, the
// adversarial probes A1–A14 and the before/after checks D1–D4), and
// assembles the logicprobe/verify/v1 report.
//
// Every guard-aware check explores the concrete runtime of package runtime
// through package explore. A search that stops at its cap yields an
// *_UNDECIDED finding and sets summary.truncated; it never passes.
package verify
