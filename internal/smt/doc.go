// Package smt turns a symbolic transition system (package sts) and
// expressions (package expr) into Z3 terms, frame by frame. It is the only
// package that imports the Z3 binding.
//
// Every asserted constraint belongs to a tracked Group with a stable id, a
// stage (kernel, initialisation, assumption) and a source reference, and is
// asserted behind an activation literal. Engines choose which groups a check
// includes by passing their literals as assumptions, so one incremental
// solver serves every stage of a staged solve, and an unsat core maps back
// to groups — and so to the source lines an explanation quotes.
//
// Expression lowering follows the runtime's Python-like semantics exactly
// (true division, floored modulo, short-circuit definedness) and returns a
// definedness condition next to every value: a guard that divides by zero
// is undefined, not silently some value.
package smt
