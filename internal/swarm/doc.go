// Package swarm runs the bug-hunting searches of `stateproof verify
// --swarm I/N` and combines their reports (`stateproof merge`).
//
// A swarm member is one of N diversified depth-first searches: its own
// random seed, its own event order (shuffled per node) and its own depth
// limit, all derived from I, so N members started by a scheduler (a
// Kubernetes Indexed Job, a Slurm array, a CI matrix) search different
// parts of a space too large for any exhaustive search without talking to
// each other. A member stores the runtimes it visits, up to a cap, and
// checks the never-states and var-in-range invariants on each one with the
// test verify's S7 uses.
//
// A depth-first search decides nothing: a member that finds no violation
// reports undecided, never pass, whatever it explored. A violation it
// finds carries its path with the model transition of each step, so that
// Merge can replay it on the runtime before believing it: a path that does
// not replay, or does not end in a violation, is refused as an error,
// never reported as a finding. Merge replays each distinct path once,
// keeps the shortest per invariant and shortens it (breadth-first from the
// initial runtime, and failing that from each runtime along the path
// towards a later one) within a time budget, past which the rest of the
// path is kept as found and the violation says so.
package swarm
