package bmc

import (
	"math/big"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/runtime"
)

// A query literal past int64 is encoded exactly, and a witness whose
// values are past int64 decodes exactly and replays: one up adds
// 1025·(2^53−1) = 9232379236109515775 > 2^63.
func TestQueryAndWitnessPastInt64(t *testing.T) {
	ups := strings.Repeat(`{"variable": "x", "op": "inc", "value": 9007199254740991}, `, 1025)
	m, sys := decodeModel(t, `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}],
	  "transitions": [{"from": "A", "event": "up", "to": "A", "updates": [`+strings.TrimSuffix(ups, ", ")+`]}],
	  "variables": [{"name": "x", "kind": "integer", "init": 0}]}`)
	for _, c := range []struct {
		value string
		found bool
	}{{"9232379236109515775", true}, {"9232379236109515776", false}, {"18464758472219031550", true}} {
		q, err := query.Parse("q.fbmcq", "check reach <= 2: x == "+c.value+";\n")
		if err != nil {
			t.Fatal(err)
		}
		if err := query.Bind(q, sys, query.BindOptions{}); err != nil {
			t.Fatal(err)
		}
		r := solve(t, sys, q, Options{Shortest: true})
		if got := r.Outcome == "witness_found"; got != c.found {
			t.Fatalf("x == %s: outcome %s, want found=%v", c.value, r.Outcome, c.found)
		}
		if !c.found {
			continue
		}
		last := r.Trace.Frames[len(r.Trace.Frames)-1].Vars[0].Value
		want, _ := new(big.Int).SetString(c.value, 10)
		if b, ok := last.(*big.Int); !ok || b.Cmp(want) != 0 {
			t.Errorf("x == %s: the witness ends with x = %v (%T)", c.value, last, last)
		}
		if rep := runtime.Compile(m).Replay(r.Trace); !rep.OK() {
			t.Errorf("x == %s: replay mismatches %v", c.value, rep.Mismatches)
		}
	}
}
