package verify

import (
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// A closed Done stops every search as its cap would: the run ends early,
// says truncated and decides nothing it did not search, so a cancelled
// run can never pass.
func TestDoneStopsTheSearches(t *testing.T) {
	res, err := jsonmodel.Decode([]byte(gen.Counter(1000000)))
	if err != nil || !res.Valid() {
		t.Fatalf("%v %v", err, res.Errors)
	}
	done := make(chan struct{})
	close(done)
	opts := DefaultOptions()
	opts.MaxStates = report.MaxStatesLimit
	opts.Done = done
	rep := Run(res, opts)
	if !rep.Truncated {
		t.Fatal("a cancelled run is not marked truncated")
	}
	if v, _ := rep.Verdict(); v == report.Pass {
		t.Errorf("a cancelled run passed")
	}
}
