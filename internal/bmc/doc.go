// Package bmc is the bounded model checker: it compiles a bound query
// (package query) over a symbolic transition system (package sts) into
// Core_N = D_N ∧ I_0 ∧ T_N ∧ ENV_N plus the property objective, solves it in
// stages on one incremental Z3 solver under one monotonic budget, maps the
// answers to the ten outcomes and the polarity-aware verdict of seed 002,
// and decodes a satisfying model into the public trace (package trace) that
// the caller replays on the runtime.
//
// It claims only what it checked: a SAT answer is evidence up to the bound,
// an unknown or timeout is reported as such with Z3's reason, and an
// infeasible scenario is never read as a verdict on the property.
package bmc
