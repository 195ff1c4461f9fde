package runtime

import (
	"testing"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/gen"
)

// MergesOutcomes is true when Successors can drop an outcome that Fired
// keeps, and false only where the guards of every two branches into one
// state exclude each other.
func TestMergesOutcomes(t *testing.T) {
	model := func(transitions string) string {
		return `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "B"}],
		  "transitions": [` + transitions + `],
		  "variables": [{"name": "on", "kind": "boolean", "init": false}, {"name": "n", "kind": "integer", "init": 0}]}`
	}
	const (
		onFalse = `"guard": {"variable": "on", "op": "==", "value": false}`
		onTrue  = `"guard": {"variable": "on", "op": "==", "value": true}`
		nBelow3 = `"guard": {"variable": "n", "op": "<", "value": 3}`
		nBelow5 = `"guard": {"variable": "n", "op": "<", "value": 5}`
		nNot0   = `"guard": {"variable": "n", "op": "!=", "value": 0}`
		n0      = `"guard": {"variable": "n", "op": "==", "value": 0}`
		both    = `"guard": {"all": [{"variable": "n", "op": "<", "value": 5}, {"variable": "n", "op": "==", "value": 1}]}`
	)
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"toggles", gen.Toggles(4), false},
		{"counter", gen.Counter(10), false},
		{"two defaults into B", model(`{"from": "A", "event": "e", "to": "B"}, {"from": "A", "event": "e", "to": "B"}`), true},
		{"defaults into A and B", model(`{"from": "A", "event": "e", "to": "A"}, {"from": "A", "event": "e", "to": "B"}`), false},
		{"overlapping guards", model(`{"from": "A", "event": "e", "to": "B", ` + nBelow3 + `}, {"from": "A", "event": "e", "to": "B", ` + nBelow5 + `}`), true},
		{"on == false, on == true", model(`{"from": "A", "event": "e", "to": "B", ` + onFalse + `}, {"from": "A", "event": "e", "to": "B", ` + onTrue + `}`), false},
		{"n == 0, n != 0", model(`{"from": "A", "event": "e", "to": "B", ` + n0 + `}, {"from": "A", "event": "e", "to": "B", ` + nNot0 + `}`), false},
		{"n == 0, all(n < 5, n == 1)", model(`{"from": "A", "event": "e", "to": "B", ` + n0 + `}, {"from": "A", "event": "e", "to": "B", ` + both + `}`), false},
		{"n != 0, all(n < 5, n == 1)", model(`{"from": "A", "event": "e", "to": "B", ` + nNot0 + `}, {"from": "A", "event": "e", "to": "B", ` + both + `}`), true},
		{"two events", model(`{"from": "A", "event": "e", "to": "B"}, {"from": "A", "event": "f", "to": "B"}`), false},
	} {
		mc := compile(t, c.src)
		if got := mc.MergesOutcomes(); got != c.want {
			t.Errorf("%s: MergesOutcomes = %v, want %v", c.name, got, c.want)
		}
		if c.want {
			continue
		}
		// no merge: Successors and Fired agree from every reachable runtime
		seen := map[string]bool{}
		queue := [][]int64{mc.Initial(make([]int64, mc.Width()))}
		var a, b concrete.Buffer
		for len(queue) > 0 {
			r := queue[0]
			queue = queue[1:]
			if seen[mc.Key(r)] {
				continue
			}
			seen[mc.Key(r)] = true
			s, f := mc.Successors(r, &a), mc.Fired(r, &b)
			if len(s) != len(f) {
				t.Fatalf("%s: at %s Successors gives %d outcomes, Fired %d", c.name, mc.Key(r), len(s), len(f))
			}
			for _, o := range s {
				queue = append(queue, append([]int64(nil), o.Next...))
			}
		}
	}
}
