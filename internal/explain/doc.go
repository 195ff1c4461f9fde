// Package explain says why a bounded scenario is infeasible (docs/queries.md):
// which part of the input is in conflict (a classification decided by the
// stage where satisfiability is lost and at most two probes), which clauses
// (a core over tracked groups, minimised by deletion under the solve's one
// budget), and optionally why (a proof whose every step is checked).
//
// It claims only what it checked. A core that was not tested member by
// member is published as raw or partial_minimized, never as minimal; a proof
// is published only when every input is bound to exactly one core member in
// both directions (equations 8 and 9 of seed 002) and every derived step was
// re-derived by the independent checker in package rulecheck or discharged
// by the solver from core members alone. Whatever cannot be achieved
// degrades to a lower achieved mode with a reason, rather than being
// approximated.
//
// The package builds on bmc (the request, the budgeted check, the ledger)
// and smt (the groups and their activation literals); bmc does not import
// it, the command wires it in as bmc.Options.Explainer.
package explain
