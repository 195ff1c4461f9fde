package explicit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

func parse(t *testing.T, src string) *model.Model {
	t.Helper()
	m, err := model.Parse("test.fcstm", src, model.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return m
}

// key names a state independently of the machine's interning order.
func key(mc *Machine, words []int64) string {
	loc := mc.Location(words[0])
	switch loc.Kind {
	case Raised:
		return "raised " + loc.Err.Error()
	case Undecided:
		return "undecided " + loc.Reason
	}
	return fmt.Sprintf("%q %v", loc.control, words[1:])
}

// reached is the set of states of g at depth at most depth, and the
// depth up to which g is complete (math.MaxInt when not truncated).
func reached(mc *Machine, g *explore.Graph) (map[string]int, int) {
	complete := math.MaxInt
	if g.Truncated {
		// Breadth-first: every node shallower than the last stored one
		// is stored.
		complete = g.Depth(g.Len()-1) - 1
	}
	set := map[string]int{}
	for i := range g.Len() {
		if d := g.Depth(i); d <= complete {
			set[key(mc, g.Runtime(i, nil))] = d
		}
	}
	return set, complete
}

// The reduced inputs reach exactly the states every input set reaches,
// and random simulation stays inside them.
func TestReductionKeepsStates(t *testing.T) {
	compared := 0
	for seed := uint64(1); seed <= 30; seed++ {
		src := fcstmtest.RandomModel(seed)
		if seed%2 == 0 {
			src = fcstmtest.RandomRaisingModel(seed)
		}
		m := parse(t, src)
		red, err := New(m)
		if err != nil {
			continue // a cold start that fails has no states
		}
		full, _ := New(m)
		full.reduce = false
		if len(full.all) > 8 {
			continue
		}
		compared++
		gr := explore.Explore(red, 1500)
		gf := explore.Explore(full, 1500)
		sr, dr := reached(red, gr)
		sf, df := reached(full, gf)
		d := min(dr, df)
		for k, depth := range sr {
			if _, ok := sf[k]; !ok && depth <= d {
				t.Errorf("seed %d: the reduced search reaches %s (depth %d), the full one does not\n%s", seed, k, depth, src)
			}
		}
		for k, depth := range sf {
			if _, ok := sr[k]; !ok && depth <= d {
				t.Errorf("seed %d: the full search reaches %s (depth %d), the reduced one does not\n%s", seed, k, depth, src)
			}
		}
		simulate(t, seed, m, red, sr, min(dr, 40))
	}
	t.Logf("%d models compared", compared)
	if compared < 10 {
		t.Errorf("only %d random models compared", compared)
	}
}

// simulate runs random cycles (random subsets of every event) for steps
// cycles and checks that each state they reach is in set.
func simulate(t *testing.T, seed uint64, m *model.Model, mc *Machine, set map[string]int, steps int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	for walk := range 5 {
		rt, err := runtime.New(m, runtime.Options{})
		if err != nil {
			t.Fatal(err)
		}
		events := rt.EventPaths()
		st := &stepper{rt: rt}
		words := make([]int64, mc.Width())
		for step := range steps {
			var in []string
			for _, e := range events {
				if rng.IntN(2) == 0 {
					in = append(in, e)
				}
			}
			if _, err := rt.Cycle(in); err != nil {
				mc.raised(words, err)
			} else {
				mc.pack(st, nil, words)
			}
			k := key(mc, words)
			if _, ok := set[k]; !ok {
				t.Fatalf("seed %d walk %d step %d: simulation reaches %s, the search does not", seed, walk, step+1, k)
			}
			if mc.Location(words[0]).Kind == Undecided {
				break // the search goes no further either
			}
			if rt.Ended() {
				break
			}
		}
	}
}

// Workers share the interning tables: the graph is the same for any
// number of them (run with -race).
func TestWorkers(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		m := parse(t, fcstmtest.RandomRaisingModel(seed))
		var runs [2]string
		for w := range runs {
			mc, err := New(m)
			if err != nil {
				break
			}
			g := explore.Search{Machine: mc, Cap: 1500, Workers: w + 1, MinParallel: 1}.Run()
			for i := range g.Len() {
				p, _ := g.Parent(i)
				runs[w] += fmt.Sprintln(key(mc, g.Runtime(i, nil)), p)
			}
		}
		if runs[0] != runs[1] {
			t.Errorf("seed %d: two workers give another graph", seed)
		}
	}
}

// On the examples, random simulation stays inside the search, and no
// cycle raises.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/fcstm/*.fcstm")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for k, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := model.Parse(f, string(src), model.Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		mc, err := New(m)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		g := explore.Explore(mc, 3000)
		set, depth := reached(mc, g)
		for key := range set {
			if strings.HasPrefix(key, "raised") {
				t.Errorf("%s: %s", f, key)
			}
		}
		t.Logf("%s: %d states complete to depth %d", f, len(set), depth)
		simulate(t, uint64(k), m, mc, set, min(depth, 40))
	}
}

// Every input set falls in exactly one class Inputs gives, and the cycle
// on that set goes where the class's outcome goes: the classes are what
// event assumptions of queries filter on.
func TestInputClassesCoverEverySet(t *testing.T) {
	compared := 0
	for seed := uint64(1); seed <= 20; seed++ {
		m := parse(t, fcstmtest.RandomModel(seed))
		red, err := New(m)
		if err != nil {
			continue
		}
		full, _ := New(m)
		full.reduce = false
		if len(full.all) > 8 {
			continue
		}
		t.Logf("random model seed %d", seed)
		g := explore.Explore(red, 300)
		var rb, fb concrete.Buffer
		for i := range g.Len() {
			src := g.Runtime(i, nil)
			if red.Location(src[0]).Kind != Running {
				continue
			}
			outs, ins := red.Inputs(src, &rb, nil)
			if len(outs) != len(ins) {
				t.Fatalf("seed %d: %d outcomes, %d classes", seed, len(outs), len(ins))
			}
			for mask, fo := range full.Successors(src, &fb) {
				var in []int
				for b, e := range full.all {
					if mask&(1<<b) != 0 {
						in = append(in, e)
					}
				}
				hit := -1
				for c, class := range ins {
					if containsAll(in, class.Present) && !containsAny(in, class.Absent) {
						if hit >= 0 {
							t.Fatalf("seed %d: input %v is in classes %d and %d", seed, in, hit, c)
						}
						hit = c
					}
				}
				if hit < 0 {
					t.Fatalf("seed %d: input %v is in no class of %v", seed, in, ins)
				}
				if a, b := key(red, outs[hit].Next), key(full, fo.Next); a != b {
					t.Errorf("seed %d: input %v goes to %s, its class %v to %s", seed, in, b, ins[hit], a)
				}
				compared++
			}
		}
	}
	if compared < 100 {
		t.Errorf("only %d input sets compared", compared)
	}
}

func containsAll(set, xs []int) bool {
	for _, x := range xs {
		if !slices.Contains(set, x) {
			return false
		}
	}
	return true
}

func containsAny(set, xs []int) bool {
	for _, x := range xs {
		if slices.Contains(set, x) {
			return true
		}
	}
	return false
}

// The label cache gives the shared table's numbers whatever the order
// labels are asked in: a pool larger than a set's two ways, with
// collisions, evictions and hits on either way.
func TestLabelCache(t *testing.T) {
	mc, _ := togglesState(t)
	st := &stepper{}
	rng := rand.New(rand.NewPCG(3, 9))
	pool := make([]label, 1200)
	for i := range pool {
		pool[i] = label{from: rng.IntN(4), to: rng.IntN(4), mask: uint64(rng.IntN(1 << 14))}
	}
	for range 100000 {
		l := pool[rng.IntN(len(pool))]
		if got, want := mc.cachedLabel(st, l), mc.label(l); got != want {
			t.Fatalf("label %+v is %d through the cache, %d in the table", l, got, want)
		}
	}
}
