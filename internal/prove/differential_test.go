package prove

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/verify"
)

// TestAgreesWithExplicitSearch: on generated models whose state space the
// explorer exhausts, a var-in-range invariant (plain or scoped to a state)
// is violated for the prover exactly when S7 finds a violation. The prover
// may say unknown, never the opposite of the explorer.
func TestAgreesWithExplicitSearch(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 20
	}
	checked := 0
	tally := map[string]int{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		src := gen.Random(seed)
		lo, hi := int(seed%3)-1, int(seed%4)+1
		when := ""
		if seed%2 == 0 {
			when = fmt.Sprintf(`, "when": {"state": "S%d"}`, seed%2)
		}
		inv := fmt.Sprintf(`, "invariants": [{"id": "x-range", "description": "d", "kind": "var-in-range", "variable": "x", "min": %d, "max": %d%s}]}`, lo, hi, when)
		src = strings.TrimSuffix(strings.TrimSpace(src), "}") + inv
		res, err := jsonmodel.Decode([]byte(src))
		if err != nil || !res.Valid() {
			t.Fatalf("seed %d: %v %v", seed, err, res.Errors)
		}
		opts := verify.DefaultOptions()
		opts.MaxStates = 5000
		r := verify.Run(res, opts)
		if r.Truncated {
			continue // an unbounded counter: the explorer is no oracle here
		}
		violated := false
		for _, c := range r.Checks {
			for _, f := range c.Findings {
				violated = violated || f.Code == "S7_INVARIANT_VIOLATION"
			}
		}
		p, err := ModelProblem(jsonfront.FromModel(res.Model, "random.json"))
		if err != nil {
			t.Fatal(err)
		}
		pr, err := Prove(p, Options{TimeoutMS: 5000})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		switch {
		case violated && pr.Verdict == "proved":
			t.Errorf("seed %d: S7 found a violation, prove says proved\n%s", seed, src)
		case !violated && pr.Verdict == "violated":
			t.Errorf("seed %d: S7 exhausted the space without a violation, prove says violated\n%s", seed, src)
		}
		checked++
		tally[fmt.Sprintf("S7 violated=%v, prove %s", violated, pr.Verdict)]++
	}
	t.Logf("%d models compared: %v", checked, tally)
	if checked < n/10 {
		t.Errorf("only %d of %d models were exhaustively explored; the generator no longer exercises this test", checked, n)
	}
}
