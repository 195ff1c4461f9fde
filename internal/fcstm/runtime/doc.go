// Package runtime executes a constructed FCSTM machine (package
// fcstm/model) one macro step at a time: it is the reference semantics of
// docs/fcstm.md ("The runtime cycle") and the oracle that replays BMC
// witnesses, so it must stay independent of any symbolic encoding.
//
// A Runtime holds a stack of frames from the root to the current state,
// each with a mode (active, after_entry, init_wait, post_child_exit) and a
// pending flag for a composite's plain "during before", plus the persistent
// variables. Cycle(events) runs one macro step:
//
//   - the inputs are resolved to model events (full path, relative to the
//     current state, ".x"/"..x" relative to its ancestors, "/x" from the
//     root); an unknown event is an error;
//   - a depth-first search runs the inner loop on a copy of the state: every
//     choice (the transitions of an active leaf, the initial transitions of
//     a composite, the parent-level transitions after a child left through
//     [*]) tries its candidates in declaration order and keeps the first
//     whose continuation reaches a stoppable leaf or ends the machine;
//   - when no continuation does, the cycle is a Delta: nothing changes;
//   - otherwise the found continuation is committed and the abstract
//     handlers are called, in order, with the contexts recorded on it.
//
// A single search replaces the reference's "speculate, then run again for
// real": the two agree because handlers cannot change variables, so the
// second run would follow the same path; handlers are therefore never
// called for a continuation that is not committed.
//
// An error (an unknown event, an expression without a value, a writeback
// that does not fit, a handler failure in raise mode, a search limit)
// leaves the runtime exactly as it was before the cycle.
//
// An explicit search (package fcstm/explicit) steps stored states: Snapshot
// and Restore save and set a configuration without running any action,
// Step is a cycle that records nothing, and Readable and Tested bound and
// list the events a cycle reads, by which the search reduces its inputs.
//
// Expressions are evaluated by package expr with its Python-like rules;
// each operation block writes its persistent variables back, converted to
// their declared types, when it ends.
package runtime
