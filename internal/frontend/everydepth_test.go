package frontend_test

import (
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/fcstmfront"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// fakeDepths answers every query alike and records the limits it got.
type fakeDepths struct {
	a   frontend.DepthAnswer
	ok  bool
	lim []frontend.DepthLimits
}

func (f *fakeDepths) AllDepths(_ *query.Query, lim frontend.DepthLimits) (frontend.DepthAnswer, bool) {
	f.lim = append(f.lim, lim)
	return f.a, f.ok
}

// TestEveryDepthNeedsAgreement: CheckAll adds the every-depth note only
// when the search modelled the query, agrees with bmc, and stayed within
// the bound; the limits it gives the search are the bound (one less for
// cover, whose case is a step out of a state) and a share of the budget.
func TestEveryDepthNeedsAgreement(t *testing.T) {
	const src = "def int n = 0;\nstate R {\n    state A;\n    state B { enter { n = 1; } }\n    [*] -> A;\n    A -> B :: Go;\n    B -> A :: Back;\n    A -> B : if [n > 5];\n}\n"
	m, err := fcstmfront.Format{}.LoadSource(input.Reader{}, "ab.fcstm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	agree := frontend.DepthAnswer{Outcome: "property_satisfied", States: 4, Diameter: 3}
	for _, c := range []struct {
		name  string
		query string
		a     frontend.DepthAnswer
		ok    bool
		depth int // the depth limit the search gets; 0: not called
		note  bool
	}{
		{"agrees", "check invariant <= 3: n <= 1;", agree, true, 3, true},
		{"not modelled", "check invariant <= 3: n <= 1;", agree, false, 3, false},
		{"undecided", "check invariant <= 3: n <= 1;", frontend.DepthAnswer{Outcome: "unknown", States: 4, Diameter: 3}, true, 3, false},
		{"disagrees", "check invariant <= 3: n <= 1;", frontend.DepthAnswer{Outcome: "property_violated", States: 4, Diameter: 3}, true, 3, false},
		{"too deep", "check invariant <= 3: n <= 1;", frontend.DepthAnswer{Outcome: "property_satisfied", States: 4, Diameter: 4}, true, 3, false},
		{"cover", `check cover <= 4: case("R.A::transition::R.B::1");`, frontend.DepthAnswer{Outcome: "no_witness", States: 4, Diameter: 3}, true, 3, true},
		{"cover too deep", `check cover <= 3: case("R.A::transition::R.B::1");`, frontend.DepthAnswer{Outcome: "no_witness", States: 4, Diameter: 3}, true, 2, false},
		{"violated", "check invariant <= 3: n == 0;", agree, true, 0, false},
	} {
		q, err := query.Parse("<check>", c.query)
		if err == nil {
			err = query.Bind(q, m.System, query.BindOptions{})
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fake := &fakeDepths{a: c.a, ok: c.ok}
		m.Depths = fake
		var reps []*bmc.Report
		before := time.Now()
		withContext(t, func(ctx *z3.Context) {
			reps, err = frontend.CheckAll(ctx, m, []*query.Query{q}, bmc.Options{TimeoutMS: 10000}, "")
		})
		after := time.Now()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := reps[0].Result.EveryDepth != nil; got != c.note {
			t.Errorf("%s: note %v, want %v", c.name, got, c.note)
		}
		if c.depth == 0 {
			if len(fake.lim) != 0 {
				t.Errorf("%s: searched on a %s", c.name, reps[0].Result.Outcome)
			}
			continue
		}
		if len(fake.lim) != 1 {
			t.Fatalf("%s: %d searches", c.name, len(fake.lim))
		}
		lim := fake.lim[0]
		if lim.Depth != c.depth || lim.States <= 0 || !lim.Deadline.After(before) || lim.Deadline.After(after.Add(time.Second)) {
			t.Errorf("%s: limits %+v, want depth %d and at most a tenth of the 10 s budget", c.name, lim, c.depth)
		}
	}
}
