package verify

import "stateproof/internal/jsonmodel"

// PLACEHOLDER on branch compare. The full decideInvariant, which dispatches
// all eight invariant kinds to the S7 and A9–A13 searches, is written on the
// probes branch and replaces this whole file at merge time. Keep it tiny:
// D2 (continuity.go) is written against the method's signature only.

// pathKindsPending is why a path-kind invariant is not decided yet.
const pathKindsPending = "path kinds are decided once the A9–A13 searches land"

// decideInvariant decides one invariant in this run's model with the search
// its kind uses. Here only the state-predicate kinds are decided; a path
// kind comes back undecided with the reason in what.
func (e *env) decideInvariant(inv *jsonmodel.Invariant) invariantOutcome {
	if isStatePredicate(inv.Kind) {
		return e.decideStatePredicate(inv)
	}
	return invariantOutcome{undecided: true, what: pathKindsPending}
}
