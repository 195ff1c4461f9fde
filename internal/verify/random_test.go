package verify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// TestRandomModels runs every check over generated models (unbounded
// counters included, which truncate) and asserts what must hold whatever
// the model: no panic, a report that is valid JSON, 22 checks, and a
// truncated run that either decided everything or says what it did not.
func TestRandomModels(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		src := gen.Random(seed)
		res, err := jsonmodel.Decode([]byte(src))
		if err != nil || !res.Valid() {
			t.Fatalf("seed %d: %v %v", seed, err, res.Errors)
		}
		opts := DefaultOptions()
		opts.MaxStates = 300
		r := Run(res, opts)
		if r.ChecksRun() != 22 {
			t.Fatalf("seed %d: %d checks", seed, r.ChecksRun())
		}
		data, err := report.Indent(r.JSON())
		if err != nil || !json.Valid(data) {
			t.Fatalf("seed %d: report is not JSON: %v", seed, err)
		}
		undecided := strings.Contains(string(data), "_UNDECIDED")
		if undecided && !r.Truncated {
			t.Errorf("seed %d: an undecided finding without summary.truncated", seed)
		}
		if v, _ := r.Verdict(); undecided && v == report.Pass {
			t.Errorf("seed %d: undecided but passing", seed)
		}
	}
}
