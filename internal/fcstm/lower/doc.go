// Package lower turns a constructed FCSTM model into the symbolic
// transition system (package sts) that bounded model checking,
// infeasibility explanation and the prover work on (docs/fcstm.md, "BMC
// lowering").
//
// One runtime cycle becomes, per source (the cold start, a hot start into
// a composite, each stoppable leaf, the terminated sentinel), a finite list
// of macro-step cases. They are computed without a solver by a symbolic
// replica of the runtime's inner loop: events and guards fork the path,
// validated candidates become priorities over the cases of earlier
// candidates, action blocks become ordered effects (with if statements as
// conditional values and int writeback checked), abstract actions become
// call records, and every expression that can fail at run time splits off
// an error case, so that error steps stay invisible to queries instead of
// being silently given a value.
//
// The engines never see an FCSTM type: only the sts.System this package
// returns.
package lower
