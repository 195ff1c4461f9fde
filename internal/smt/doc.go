// Package smt turns a symbolic transition system (package sts) and
// expressions (package expr) into Z3 terms, frame by frame. It is the only
// package that imports the Z3 binding.
//
// Every constraint belongs to a Group with a stable id, a stage (kernel,
// initialisation, assumption) and a source reference. In the tracked shape
// (NewEncoding) each group is asserted behind an activation literal. Engines choose which groups a check
// includes by passing their literals as assumptions, so one incremental
// solver serves every stage of a staged solve, and an unsat core maps back
// to groups — and so to the source lines an explanation quotes. The lean
// shape (NewLeanEncoding) records fewer, larger groups over fewer
// constants and asserts nothing: the engine asserts the stages each check
// needs into that check's own solver (docs/queries.md).
//
// Expression lowering follows the runtime's Python-like semantics exactly
// (true division, floored modulo, short-circuit definedness) and returns a
// definedness condition next to every value: a guard that divides by zero
// is undefined, not silently some value.
package smt
