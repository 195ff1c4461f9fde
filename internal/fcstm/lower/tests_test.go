package lower

import (
	"fmt"
	"slices"
	"testing"
)

// TestEventTests pins where one cycle from A tests events, worked out by
// hand from the runtime's inner loop: E1 first, with nothing on the way;
// with E1 present, P tests E2 before any case can end the cycle; E3 only
// once the E1 branch's one case (A to B) has failed. bmc's fair clause
// reads from these records whether a step takes an event.
func TestEventTests(t *testing.T) {
	sys := lower(t, `def int x = 0;
state R {
    state A;
    state B;
    state C;
    pseudo state P;
    [*] -> A;
    A -> P : E1;
    P -> B : E2;
    A -> C : E3 + [x > 0];
}
`)
	a := sys.LocationByName("R.A").ID
	var got []string
	for _, te := range sys.Tests[a] {
		var path []string
		for _, lit := range te.Path.Events {
			path = append(path, sys.Events[lit.Event].Name)
		}
		got = append(got, fmt.Sprintf("%s before %d after %v", sys.Events[te.Event].Name, te.Before, path))
	}
	want := []string{"R.E1 before 0 after []", "R.E2 before 0 after [R.E1]", "R.E3 before 1 after []"}
	if !slices.Equal(got, want) {
		t.Errorf("tests of R.A: %q, want %q\n%s", got, want, dump(sys))
	}
	if ts := sys.Tests[sys.LocationByName("R.B").ID]; len(ts) != 0 {
		t.Errorf("R.B tests %d events; it has no transition", len(ts))
	}
	if sys.Tests == nil {
		t.Error("an FCSTM system without its Tests map: a fair clause would be refused")
	}
}
