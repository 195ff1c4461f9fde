package jsonmodel

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
)

// ring is a model of n states in a ring, each with a guarded and an
// unguarded transition on one event.
func ring(n int) string {
	var states, trans []string
	for i := range n {
		states = append(states, fmt.Sprintf(`{"id":"S%d"}`, i))
		trans = append(trans,
			fmt.Sprintf(`{"from":"S%d","event":"go","to":"S%d","guard":{"variable":"x","op":"<","value":3}}`, i, (i+1)%n),
			fmt.Sprintf(`{"from":"S%d","event":"go","to":"S%d"}`, i, i))
	}
	return `{"schemaVersion":1,"init":"S0","states":[` + strings.Join(states, ",") + `],"transitions":[` +
		strings.Join(trans, ",") + `],"variables":[{"name":"x","kind":"integer","init":0,"min":0,"max":3}]}`
}

// Lowering visits each transition once: the siblings of a transition are
// those of its source, and the unguarded one is enabled when no guarded
// sibling on its event is.
func TestLowerSiblings(t *testing.T) {
	res, err := Decode([]byte(ring(3)))
	if err != nil || !res.Valid() {
		t.Fatalf("%v %v", err, res.Errors)
	}
	sys := res.Model.Lower("ring.json")
	for si := range 3 {
		cases := sys.Cases[si]
		if len(cases) != 3 { // two transitions and the stuck case
			t.Fatalf("state %d: %d cases", si, len(cases))
		}
		if g := expr.Format(cases[1].Guard); !strings.Contains(g, "!") || !strings.Contains(g, "x < 3") {
			t.Errorf("state %d: the unguarded transition's guard is %s, want the negation of x < 3", si, g)
		}
	}
}

// A ring of 30,000 states lowers in linear time (a minute when every
// transition scanned all transitions); the limit is a wide margin over the
// fraction of a second it takes.
func TestLowerLargeModel(t *testing.T) {
	res, err := Decode([]byte(ring(30000)))
	if err != nil || !res.Valid() {
		t.Fatalf("%v %v", err, res.Errors)
	}
	start := time.Now()
	sys := res.Model.Lower("ring.json")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("lowering took %v", took)
	}
	if len(sys.Cases) != 30000 {
		t.Errorf("%d sources", len(sys.Cases))
	}
}

func BenchmarkLower(b *testing.B) {
	for _, n := range []int{3000, 30000} {
		res, err := Decode([]byte(ring(n)))
		if err != nil || !res.Valid() {
			b.Fatalf("%v %v", err, res.Errors)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				res.Model.Lower("ring.json")
			}
		})
	}
}
