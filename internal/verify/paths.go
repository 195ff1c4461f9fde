package verify

import (
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// a10Sequence decides every sequence invariant: the listed events never
// occur out of the listed order. The breadth-first search gives the
// shortest path to the first out-of-order event.
func (e *env) a10Sequence() report.Check {
	return e.pathInvariantCheck("A10", "Sequence Order", jsonmodel.Sequence, "A10_SEQUENCE_VIOLATION", "A10_UNDECIDED", "sequence")
}

// a11Atomicity decides every atomicity invariant: once a listed event
// occurs, commit or rollback comes before any unlisted event and before a
// terminal state. Shortest violation by breadth-first search.
func (e *env) a11Atomicity() report.Check {
	return e.pathInvariantCheck("A11", "Atomicity", jsonmodel.Atomicity, "A11_ATOMICITY_VIOLATION", "A11_UNDECIDED", "atomicity")
}

// decideSequence decides a sequence invariant over (runtime, progress).
// Once every listed event has occurred in order the invariant imposes
// nothing more, so such branches are not explored further.
func (e *env) decideSequence(inv *jsonmodel.Invariant) invariantOutcome {
	k, ok := e.riders().byInv[inv]
	if out, ok := e.monitorOutcome(e.ridden(k, ok), sequenceWhat(e, inv)); ok {
		return out
	}
	return e.pairSearch(0, int64(len(inv.Events)), sequenceStep(e, inv), sequenceWhat(e, inv))
}

// Atomicity phases, one-shot: not started, started and open, closed.
const (
	atomIdle int64 = iota
	atomOpen
	atomClosed
)

// decideAtomicity decides an atomicity invariant over (runtime, phase). A
// closed group imposes nothing more, so closed branches are not explored
// further.
func (e *env) decideAtomicity(inv *jsonmodel.Invariant) invariantOutcome {
	k, ok := e.riders().byInv[inv]
	if out, ok := e.monitorOutcome(e.ridden(k, ok), e.atomicityWhat(inv)); ok {
		return out
	}
	return e.pairSearch(atomIdle, atomClosed, e.atomicityStep(inv), e.atomicityWhat(inv))
}
