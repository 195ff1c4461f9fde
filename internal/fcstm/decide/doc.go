// Package decide answers FBMCQ queries (docs/queries.md) on an FCSTM model
// by explicit search, as `stateproof verify MODEL.fcstm -q FILE.fbmcq`
// does (docs/fcstm.md, "Queries decided by search"): with the same
// frames, steps, assumptions and outcome names as bmc, so that the two
// engines cross-check each other.
//
// A query of bound N is decided over layers: layer k holds the distinct
// states a run can be in at frame k, every frame so far meeting the frame
// assumptions and every step the event assumptions of its index. Layers
// are kept apart (a state at two depths is two nodes) because `cycle`,
// `assume at K` and event assumptions on a step range tell depths apart.
// A witness or counterexample at frame k counts only when the run can go
// on to frame N within the assumptions, as a bmc trace must; the backward
// pass over the layers marks those nodes. The first such frame, in
// breadth-first order, gives the shortest evidence.
//
// A cover query names a case of bmc's encoding (package sts); each step's
// case is found by evaluating the source's cases on the concrete values,
// checked against where the runtime went (cases.go).
//
// Verdicts that rest on the absence of a run (property_satisfied,
// no_witness) become unknown, as in bmc, when a run of the scenario
// raises a runtime error within the bound; they also become unknown when
// the search stopped at its state cap or met a state it cannot step (a
// variable outside the 64-bit integers): never a pass.
//
// An ltl check (ltl.go) is decided over every run instead: the reachable
// states as an ltl.System whose steps take sets of events (the events a
// cycle read present), handed to package ltl, the engine of the JSON
// models' ltl invariants, with the check's weak and strong fairness
// (docs/liveness.md#ltl-on-fcstm-models).
//
// The package sits beside the explicit engine (package fcstm/explicit),
// not in it, because it reads the query language, which the explicit
// engines must not import (docs/architecture.md).
package decide
