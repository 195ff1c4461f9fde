package verify

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// An invariant with an empty description gives messages without a
// dangling " — ".
func TestEmptyDescriptionNoDanglingDash(t *testing.T) {
	res, err := jsonmodel.Decode([]byte(`{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B","terminal":true}],
		"transitions":[{"from":"A","event":"go","to":"B"}],
		"invariants":[{"id":"nb","kind":"never-states","states":["B"],"description":""}]}`))
	if err != nil || !res.Valid() {
		t.Fatalf("%v %v", err, res.Errors)
	}
	rep := Run(res, DefaultOptions())
	n := 0
	for _, c := range rep.Checks {
		for _, f := range c.Findings {
			if strings.Contains(f.Message, `"nb"`) {
				n++
				if strings.HasSuffix(strings.TrimSpace(f.Message), "—") {
					t.Errorf("%s: dangling dash in %q", f.Code, f.Message)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no finding about the invariant")
	}
}
