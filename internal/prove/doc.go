// Package prove proves reachable state constraints (RSCs) of a symbolic
// transition system for every execution, following the triple rule of seed
// 003 and docs/rsc.md.
//
// A system is a node graph (Graph): nodes with the variables their RSCs
// range over, start transitions, and transitions whose relations are built
// per occurrence with freshly scoped pre-, post- and local symbols. JSON
// models (package sts) and linear CHC problems (SMT-LIB2 Horn clauses) both
// become a Graph, so the triple rule exists in one place (triple.go).
//
// The layers form a portfolio under one budget (Options.TimeoutMS): the
// triple rule on the given RSCs per strongly connected component in
// condensation order; Spacer (Z3's CHC engine), in the problem's own Z3
// context, alone for a head start, then on its own goroutine beside the
// others (which move to a context of their own) when two workers are
// allowed, else for a short first slice (of Z3's work, not of time, so
// that it does the same on every run); a bounded search from the start (a slice of the
// budget, deeper at the end) to tell a counterexample to induction (CTI)
// that is real from one that is spurious; k-induction; learning (samples
// of reachable states propose affine, parity, modular, bound and
// phase-split candidates; Houdini keeps the inductive subset); Houdini
// over mined candidates; interval propagation with widening (JSON
// models). The first certified answer stops the rest. Nothing is reported
// proved unless the final RSCs pass an independent re-check by the triple
// rule, and nothing is reported violated unless a bounded search from the
// start produced the trace (and, for JSON models, the runtime replayed
// it).
package prove
