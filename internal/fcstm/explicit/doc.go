// Package explicit hands an FCSTM model to the explicit engines: Machine
// implements the concrete-machine seam (package frontend/concrete) over
// the FCSTM runtime, so that explore.Search enumerates an FCSTM model's
// reachable states as it does a JSON model's.
//
// A state is 1+n words: word 0, the location, is an interned control
// configuration of the runtime (the frame stack with each frame's mode
// and pending "during before", whether a cycle has entered the root,
// whether the machine has ended); word 1+i is variable i, an int as
// itself and a float as its IEEE-754 bits, so that the visited set
// compares floats bit for bit (0.0 and -0.0 differ, a NaN equals itself).
//
// Four kinds of location have no successors: the ended machine; one per
// distinct runtime error ("raised"), so that a cycle that raises is a
// reachable node with a shortest path rather than a dropped step; and
// "undecided" ones, for a variable whose value leaves the 64-bit integers
// (the language's integers are mathematical: wrapping would be a false
// state) and for a configuration whose cycle can read more than
// MaxInputs events. A search that reaches an undecided location has not
// explored everything.
//
// Inputs are reduced per state (docs/fcstm.md, "How verify explores an
// FCSTM model"). A cycle reads its input set only where its search tests
// a transition's event (Runtime.Tested lists them, in order), and those
// events are among the ones some transition the cycle's search can try
// reads (Runtime.Readable: the transitions of the active leaf, of its
// ancestors once it exits through [*], and of the states a chain of
// initial transitions and pseudo and combo states enters in the same
// cycle). Two input sets that agree on the events a run tested give the
// same run. So the inputs are the leaves of a decision tree: run the
// empty set; for each event it tested, in order, branch on that event
// present with the events tested before it absent; repeat in each
// branch. Every input set follows exactly one path of the tree, so the
// successors of every input set are among the leaves', and an event no
// transition there reads is never enumerated. With n events, each tested
// only by the transition that fires on it, that is n+1 cycles, not 2^n.
// Each input gives one outcome and no two inputs share a label, so
// Successors and Fired coincide.
//
// Stepping a state restores a pooled runtime to it once (Runtime.Restore
// runs no action) and runs one cycle per input with Runtime.Next, which
// leaves the runtime where it was, so no input restores it again; once
// the runtime's scratch has grown, stepping allocates nothing. The
// interning tables are shared by the search's workers behind a mutex.
package explicit
