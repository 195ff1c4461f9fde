// Package swarm runs the bug-hunting searches of `stateproof verify
// --swarm I/N` and combines their reports (`stateproof merge`).
//
// A swarm member is one of N diversified depth-first searches: its own
// random seed, its own event order (shuffled per node) and its own depth
// limit, all derived from I, so N members started by a scheduler (a
// Kubernetes Indexed Job, a Slurm array, a CI matrix) search different
// parts of a space too large for any exhaustive search without talking to
// each other. A member stores the states it visits, up to a cap, and
// looks on each one for the findings its Target hunts: for a JSON model
// (JSON) the never-states and var-in-range invariants, with the test
// verify's S7 uses; for an FCSTM model (fcstm/explicit.SwarmTarget)
// cycles that raise and dead ends. Members and merge reach a format only
// through its Target.
//
// A depth-first search decides nothing: a member that finds no violation
// reports undecided, never pass, whatever it explored. A violation it
// finds carries its path, each step written so that the Target can
// follow it again (a JSON model transition, an FCSTM cycle's input set),
// so that Merge can replay it on the runtime before believing it: a path
// that does not replay, or does not end in its finding, is refused as an
// error, never reported as a finding. Merge replays each distinct path once,
// keeps the shortest per finding and shortens it (breadth-first from the
// initial state, and failing that from each state along the path
// towards a later one) within a time budget, past which the rest of the
// path is kept as found and the violation says so.
package swarm
