// Package compose checks two or more JSON models run together (reference
// docs/models.md): C1 Composition Deadlock and C2 Rendezvous Sync.
//
// A composite state is the tuple of the machines' runtimes. A
// non-rendezvous event moves exactly one non-terminal machine; a listed
// rendezvous event fires only when at least two machines declare it, at
// least two declaring machines are non-terminal, and every non-terminal
// declaring machine has it enabled — then they all step together. A
// terminal machine is stopped. Machines share no variables.
//
// The product search is breadth-first and interns compactly: each machine
// interns its own runtimes into small integer ids and caches their
// successors per event the first time they are needed, so a composite state
// is a fixed-width tuple of uint32 ids held in one flat slice, found through
// an open-addressing table, with a parent link and the move that produced
// it. No string is built per composite state; paths and per-machine
// evidence are rebuilt only for the states a finding reports.
//
// maxStates caps the product exactly as it caps a single-model exploration:
// once more than maxStates composite states are stored the search stops,
// summary.truncated is set, C1 says absence of deadlock is not proven, and
// a C2 finding gained under truncation says it may be an artefact of the cap.
package compose
