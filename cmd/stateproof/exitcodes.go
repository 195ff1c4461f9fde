package main

// The exit-code contract every command follows (docs/reports.md#exit-codes):
// a caller can tell a violated property from a bad input, and both from a
// search that did not decide.
const (
	exitHolds     = 0 // holds, pass or pass_with_findings
	exitViolated  = 1 // a property violated, or an error finding
	exitInput     = 2 // usage or input error: bad flags, unreadable file, invalid model
	exitUndecided = 3 // not decided: a cap, a budget, a solver unknown
	exitInternal  = 4 // internal error: a bug in stateproof, or a result it cannot trust
)

// legacyFailExit is what verify and compose exited with for a failing
// model before the contract: --legacy-exit-codes keeps it for callers that
// test for it.
const legacyFailExit = 2
