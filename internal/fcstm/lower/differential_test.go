package lower

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	fcstmreplay "github.com/stateproof/stateproof/internal/fcstm/replay"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/trace"
	"github.com/stateproof/stateproof/internal/z3"
)

// genModel writes a random FCSTM model: a root with leaves, a pseudo
// state and a composite, transitions with events, guards, combos and
// effects that may divide (and so fail their int writeback), an exit
// through [*] that ends the machine, and during chains with if blocks.
func genModel(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	b.WriteString("def int x = 0;\ndef int y = 1;\nstate Root {\n")
	events := []string{"E0", "E1", "E2"}
	ev := func() string { return events[r.IntN(len(events))] }
	guard := func() string {
		return [...]string{"x > 2", "x % 2 == 0", "y != 0 && x / y >= 1", "x + y < 4", "x == y"}[r.IntN(5)]
	}
	stmt := func() string {
		return [...]string{"x = x + 1;", "x = x * 2;", "y = y + x;", "x = x / 2;", "y = 0;", "x = (x + 1) % 3;",
			"if [x > 1] { x = x - 2; } else { y = y + 1; }", "t = x + y; x = t;", "y = 7 / (x + 1) * (x + 1);"}[r.IntN(9)]
	}
	leaves := []string{"A", "B", "C"}
	for _, l := range leaves {
		fmt.Fprintf(&b, "    state %s", l)
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, " { during { %s } }\n", stmt())
		} else {
			b.WriteString(";\n")
		}
	}
	b.WriteString("    pseudo state P;\n")
	b.WriteString("    state K {\n        state K1;\n        state K2")
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, " { enter { %s } }\n", stmt())
	} else {
		b.WriteString(";\n")
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "        [*] -> K1 : if [%s];\n        [*] -> K2;\n", guard())
	} else {
		b.WriteString("        [*] -> K1;\n")
	}
	fmt.Fprintf(&b, "        K1 -> K2 :: %s;\n        K2 -> [*] :: %s;\n    }\n", ev(), ev())
	if r.IntN(2) == 0 {
		b.WriteString("    >> during before { y = y + 1; }\n")
	}
	targets := []string{"A", "B", "C", "K", "P"}
	fmt.Fprintf(&b, "    [*] -> %s;\n", []string{"A", "K", "P"}[r.IntN(3)])
	fmt.Fprintf(&b, "    P -> %s : if [%s];\n", leaves[r.IntN(3)], guard())
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "    P -> %s;\n", leaves[r.IntN(3)])
	}
	fmt.Fprintf(&b, "    K -> %s", leaves[r.IntN(3)])
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, " : %s", ev())
	}
	b.WriteString(";\n")
	for range 3 + r.IntN(4) {
		from, to := leaves[r.IntN(3)], targets[r.IntN(len(targets))]
		fmt.Fprintf(&b, "    %s -> %s", from, to)
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, " :: %s", ev())
		case 1:
			fmt.Fprintf(&b, " : if [%s]", guard())
		case 2:
			fmt.Fprintf(&b, " :: %s + [%s]", ev(), guard())
		}
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, " effect { %s }", stmt())
		}
		b.WriteString(";\n")
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "    %s -> [*] :: %s;\n", leaves[r.IntN(3)], ev())
	}
	b.WriteString("}\n")
	return b.String()
}

// config is a runtime configuration between cycles: "" before the cold
// start has entered anything, "$ended" after the machine ended.
type config struct {
	state string
	vars  string
}

func (c config) runtime(m *model.Model, vals map[string]expr.Value) (*runtime.Runtime, error) {
	if c.state == "" {
		return runtime.New(m, runtime.Options{})
	}
	return runtime.New(m, runtime.Options{InitialState: c.state, InitialVars: vals})
}

// explore runs the runtime breadth-first over every subset of the events
// to depth n and returns, per configuration state, the least depth it is
// reached at.
func explore(t *testing.T, m *model.Model, n int) map[string]int {
	t.Helper()
	type node struct {
		c    config
		vals map[string]expr.Value
	}
	key := func(r *runtime.Runtime) config {
		if r.Ended() {
			return config{state: "$ended"}
		}
		return config{state: r.State(), vars: fmt.Sprint(r.Values())}
	}
	depth := map[string]int{"": 0}
	seen := map[config]bool{{}: true}
	level := []node{{}}
	for d := 1; d <= n; d++ {
		var next []node
		for _, nd := range level {
			if nd.c.state == "$ended" {
				continue
			}
			for mask := 0; mask < 1<<len(m.Events); mask++ {
				r, err := nd.c.runtime(m, nd.vals)
				if err != nil {
					t.Fatalf("runtime at %v: %v", nd.c, err)
				}
				var in []string
				for i, e := range m.Events {
					if mask&(1<<i) != 0 {
						in = append(in, e.Path)
					}
				}
				cyc, err := r.Cycle(in)
				if err != nil {
					continue // an error cycle: no successor
				}
				c := key(r)
				if cyc.Delta {
					c = nd.c
				}
				if seen[c] {
					continue
				}
				seen[c] = true
				if _, ok := depth[c.state]; !ok {
					depth[c.state] = d
				}
				next = append(next, node{c: c, vals: r.Vars()})
			}
		}
		level = next
	}
	return depth
}

// replay replays a witness on the runtime with the FCSTM replayer (the
// one the CLI uses) and returns its mismatches as an error.
func replay(m *model.Model, tr *trace.Trace) error {
	if rep := fcstmreplay.New(m).Replay(tr); !rep.OK() {
		return fmt.Errorf("%v", rep.Mismatches)
	}
	return nil
}

func activeAtom(name string) expr.Expr {
	return &expr.AtomCall{Name: "active", Args: []expr.Arg{{Value: &expr.StringLit{Value: name}}}}
}

// TestDifferentialReach: on generated FCSTM models, bmc `reach <= N:
// active(leaf)` (and terminated()) agrees with breadth-first exploration
// of the runtime over every event subset, and every witness replays on the
// runtime.
func TestDifferentialReach(t *testing.T) {
	const bound = 3
	models := 30
	if testing.Short() {
		models = 8
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for seed := uint64(1); seed <= uint64(models); seed++ {
		src := genModel(seed)
		m := build(t, src)
		sys, err := Lower(m)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		depth := explore(t, m, bound)
		targets := map[string]expr.Expr{"$ended": &expr.AtomCall{Name: "terminated"}}
		for _, l := range sys.Locations {
			if n := m.StateByPath[l.Name]; n.Stoppable() {
				targets[l.Name] = activeAtom(l.Name)
			}
		}
		names := make([]string, 0, len(targets))
		for k := range targets {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, name := range names {
			q := &query.Query{Check: query.Check{Kind: query.Reach, Bound: bound, Body: targets[name]}}
			res, err := bmc.Solve(ctx, sys, q, bmc.Options{TimeoutMS: solveTimeoutMS})
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, name, err)
			}
			_, want := depth[name]
			if got := res.Outcome == "witness_found"; got != want {
				t.Fatalf("seed %d: reach %s: bmc says %s, the runtime says reachable=%v\n%s\n%s", seed, name, res.Outcome, want, src, dump(sys))
			}
			if res.Trace != nil {
				if err := replay(m, res.Trace); err != nil {
					t.Fatalf("seed %d: reach %s: replay: %v\n%s\n%s", seed, name, err, src, dump(sys))
				}
			}
		}
	}
}

// solveTimeoutMS bounds every solve of these tests, so that a solver that
// stalls fails the test (outcome timeout) instead of hanging it.
const solveTimeoutMS = 30000
