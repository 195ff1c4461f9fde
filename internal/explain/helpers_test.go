package explain

import (
	"os"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/bmc/bmctest"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// run solves query text over a model file with an explanation of mode,
// and returns the result and the request the explainer saw.
func run(t *testing.T, modelPath, text, mode string, wrap func(*bmc.ExplainRequest) (*bmc.Refinement, error)) (*bmc.Result, *bmc.ExplainRequest) {
	t.Helper()
	data, err := os.ReadFile(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		t.Fatalf("model: %v %v", err, res.Errors)
	}
	sys := res.Model.Lower(modelPath)
	var seen *bmc.ExplainRequest
	if wrap == nil {
		wrap = Explain
	}
	r := bmctest.Solve(t, sys, "q.fbmcq", text, bmc.Options{Explain: mode, Explainer: func(req *bmc.ExplainRequest) (*bmc.Refinement, error) {
		seen = req
		return wrap(req)
	}})
	return r, seen
}

func explanationOf(t *testing.T, r *bmc.Result) *Explanation {
	t.Helper()
	if r.Refinement == nil || r.Refinement.Explanation == nil {
		t.Fatalf("no explanation: outcome %s, refinement %+v", r.Outcome, r.Refinement)
	}
	return r.Refinement.Explanation.(*Explanation)
}

const latch = "../../examples/latch.json"
