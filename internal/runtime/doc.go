// Package runtime is the concrete step semantics of a JSON model: the oracle
// every explicit-state check explores and every BMC witness is replayed on.
//
// A runtime is a state plus the value of every declared variable. Step
// applies one event: the guarded branches of the (state, event) group whose
// guard holds fire; when none holds, the unguarded default branches fire.
// Several firing branches are nondeterminism, and every outcome is returned.
// Updates are never clamped to a variable's declared range: the range is a
// property the checks verify, not a bound on the search.
//
// The package compiles a validated jsonmodel.Model into index-based tables
// so that a step allocates nothing; runtimes are flat []int64 words
// (state index, then one word per variable, booleans as 0/1). Integers are
// mathematical integers: a word holds the integer itself while it stays
// within [−2^62, 2^62) and is otherwise a handle to an exact big value interned per
// machine (see Word), so arithmetic never wraps or saturates and equal
// runtimes still have equal words.
//
// It must stay independent of the symbolic encoding (package sts): that
// independence is what makes a replayed BMC witness evidence.
package runtime
