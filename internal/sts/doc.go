// Package sts is the symbolic transition system every symbolic engine
// works on: bounded model checking, infeasibility explanation and the
// prover see this, never a front-end type.
//
// A System has locations (stable states plus the sentinels InitID and
// TerminatedID), typed variables, boolean event inputs per step, and for
// every source location an ordered list of cases. A case is one way a step
// can go: its kind, a stable label, an enabling condition over the
// pre-state variables, the input events it needs present or absent, the
// earlier cases of its source that must be disabled (priority), ordered
// effects, the target location, abstract-call records, and a source
// reference for every piece, so that an explanation can point at the line
// a constraint came from.
//
// Both front ends lower into it: JSON models (package jsonmodel, one event
// per step, nondeterminism kept, a stutter case where nothing is enabled)
// and, later, FCSTM macro steps (hierarchical paths, priorities, calls).
package sts
