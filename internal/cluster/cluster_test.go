package cluster

import (
	"context"
	"errors"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

func machine(t *testing.T, src []byte) *runtime.Machine {
	t.Helper()
	res, err := jsonmodel.Decode(src)
	if err != nil || !res.Valid() {
		t.Fatalf("%v %v", err, res.Errors)
	}
	return runtime.Compile(res.Model)
}

// cluster runs n workers in this process on loopback and returns worker
// 0's result and every worker's error.
func cluster(t *testing.T, src []byte, n, cap int, tweak func(i int, c *Config)) (*Result, []error) {
	t.Helper()
	var lis []net.Listener
	var peers []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lis = append(lis, l)
		peers = append(peers, l.Addr().String())
	}
	errs := make([]error, n)
	var res *Result
	var wg sync.WaitGroup
	for i := range n {
		cfg := Config{Index: i, Peers: peers, Listener: lis[i], Token: []byte("secret"), PeerTimeout: 2 * time.Second,
			StartTimeout: 5 * time.Second, Version: "test", ModelHash: "h"}
		if tweak != nil {
			tweak(i, &cfg)
		}
		mc := machine(t, src) // each worker its own machine, as in its own process
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Run(context.Background(), cfg, mc, cap)
			errs[i] = err
			if i == 0 {
				res = r
			}
		}()
	}
	wg.Wait()
	return res, errs
}

// sameGraph compares a partitioned graph with the one-process search's,
// node for node.
func sameGraph(t *testing.T, what string, got, want *explore.Graph) {
	t.Helper()
	if got.Len() != want.Len() || got.Expanded != want.Expanded || got.Truncated != want.Truncated || got.Cap != want.Cap {
		t.Fatalf("%s: %d nodes, expanded %d, truncated %v, cap %d; want %d, %d, %v, %d", what,
			got.Len(), got.Expanded, got.Truncated, got.Cap, want.Len(), want.Expanded, want.Truncated, want.Cap)
	}
	for i := range want.Len() {
		a, b := got.Runtime(i, nil), want.Runtime(i, nil)
		// big integers compare by value: each machine has its own handles
		gm, wm := got.M.(*runtime.Machine), want.M.(*runtime.Machine)
		if gm.Key(a) != wm.Key(b) {
			t.Fatalf("%s: node %d is %s, want %s", what, i, gm.Key(a), wm.Key(b))
		}
		gp, gv := got.Parent(i)
		wp, wv := want.Parent(i)
		if gp != wp || gv != wv {
			t.Fatalf("%s: node %d parent (%d, %d), want (%d, %d)", what, i, gp, gv, wp, wv)
		}
	}
}

func examples(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{
		"gen toggles 6":   []byte(gen.Toggles(6)),
		"gen counter 300": []byte(gen.Counter(300)),
		"gen ring 3":      []byte(gen.Ring(3)),
		"gen random 5":    []byte(gen.Random(5)),
	}
	for _, dir := range []string{"../../examples", "../../examples/broken"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if res, err := jsonmodel.Decode(data); err == nil && res.Valid() {
				out[f] = data
			}
		}
	}
	return out
}

// TestPartitionedGraphIsTheSearchGraph: for every example and a few
// generated families, with 2 and 3 workers and caps that cut a level, the
// settled graph is the one-process breadth-first graph node for node.
func TestPartitionedGraphIsTheSearchGraph(t *testing.T) {
	for name, src := range examples(t) {
		for _, n := range []int{2, 3} {
			for _, cap := range []int{500, 7} { // small: a level costs round trips, and deep models have one per state
				want := explore.Search{Machine: machine(t, src), Cap: cap}.Run()
				start := time.Now()
				res, errs := cluster(t, src, n, cap, nil)
				if res == nil {
					t.Fatalf("%s, %d workers: %v", name, n, errs)
				}
				t.Logf("%s n=%d cap=%d: %d levels %v", name, n, cap, res.Levels, time.Since(start))
				for i, err := range errs {
					if err != nil {
						t.Fatalf("%s, %d workers: worker %d: %v", name, n, i, err)
					}
				}
				sameGraph(t, name, res.Graph, want)
				if res.BytesSent <= 0 {
					t.Errorf("%s: no bytes counted", name)
				}
			}
		}
	}
}

// TestWrongTokenRefused: a worker with another token is refused, and every
// worker ends with an *Error, none with a graph.
func TestWrongTokenRefused(t *testing.T) {
	res, errs := cluster(t, []byte(gen.Toggles(4)), 2, 1000, func(i int, c *Config) {
		if i == 1 {
			c.Token = []byte("guess")
		}
	})
	if res != nil {
		t.Fatal("a run with a wrong token produced a graph")
	}
	var ce *Error
	if !errors.As(errs[0], &ce) || !strings.Contains(ce.Reason, "token") {
		t.Errorf("worker 0: %v", errs[0])
	}
	if !errors.As(errs[1], &ce) {
		t.Errorf("worker 1: %v", errs[1])
	}
}

// TestPlanMismatchRefused: workers with another model are refused.
func TestPlanMismatchRefused(t *testing.T) {
	_, errs := cluster(t, []byte(gen.Toggles(4)), 2, 1000, func(i int, c *Config) {
		if i == 1 {
			c.ModelHash = "other"
		}
	})
	if errs[0] == nil || !strings.Contains(errs[0].Error(), "same model") {
		t.Errorf("worker 0: %v", errs[0])
	}
}

// TestSummaryIsTheGraphs: with Summarize, worker 0 gathers no state, and
// the summary is what the one-process graph says: its size, cap and
// truncation, and per location the least index of a state in it.
func TestSummaryIsTheGraphs(t *testing.T) {
	for name, src := range examples(t) {
		for _, n := range []int{2, 3} {
			for _, cap := range []int{500, 7} {
				g := explore.Search{Machine: machine(t, src), Cap: cap}.Run()
				res, errs := cluster(t, src, n, cap, func(i int, c *Config) { c.Summarize = i == 0 })
				if res == nil {
					t.Fatalf("%s, %d workers: %v", name, n, errs)
				}
				if res.Graph != nil || res.Summary == nil {
					t.Fatalf("%s, %d workers: worker 0 gathered the graph", name, n)
				}
				s := res.Summary
				if s.Len != g.Len() || s.Expanded != g.Expanded || s.Truncated != g.Truncated || s.Cap != g.Cap {
					t.Fatalf("%s, %d workers, cap %d: summary %d states, expanded %d, truncated %v, cap %d; graph %d, %d, %v, %d", name, n, cap,
						s.Len, s.Expanded, s.Truncated, s.Cap, g.Len(), g.Expanded, g.Truncated, g.Cap)
				}
				want := map[int]int{}
				for i := range g.Len() {
					if _, ok := want[g.StateOf(i)]; !ok {
						want[g.StateOf(i)] = i
					}
				}
				if !maps.Equal(s.First, want) {
					t.Errorf("%s, %d workers, cap %d: first state per location %v, want %v", name, n, cap, s.First, want)
				}
			}
		}
	}
}

// TestProbesHitTheLeastState: each owner runs the probes over its own
// states, and worker 0 gets, per probe, the least state where it holds
// (the nearest to the root, first in breadth-first order) with its words
// and its path, rebuilt by following parents across owners: what the
// one-process graph says.
func TestProbesHitTheLeastState(t *testing.T) {
	for name, src := range map[string][]byte{
		"gen toggles 7":  []byte(gen.Toggles(7)),
		"gen counter 60": []byte(gen.Counter(60)),
		"gen ring 3":     []byte(gen.Ring(3)),
		"gen random 5":   []byte(gen.Random(5)),
		"gen random 11":  []byte(gen.Random(11)),
		"gen probes 4":   []byte(gen.Probes(4)),
	} {
		for _, n := range []int{2, 3} {
			for _, cap := range []int{500, 7} {
				g := explore.Search{Machine: machine(t, src), Cap: cap}.Run()
				// words are small integers in these models: the same in every process
				last := g.Runtime(g.Len()-1, nil) // the deepest path
				probes := []func([]int64, bool) bool{
					func(w []int64, _ bool) bool { return slices.Equal(w, last) },
					func(w []int64, _ bool) bool { return w[0] == int64(g.StateOf(g.Len()-1)) },
					func(w []int64, _ bool) bool { return explore.HashWords(w)%5 == 0 },
					func(w []int64, root bool) bool { return root },
					func([]int64, bool) bool { return false },
				}
				res, errs := cluster(t, src, n, cap, func(i int, c *Config) { c.Summarize, c.Probes = i == 0, probes })
				if res == nil {
					t.Fatalf("%s, %d workers: %v", name, n, errs)
				}
				for k, p := range probes {
					want := -1
					for i := range g.Len() {
						if p(g.Runtime(i, nil), i == 0) {
							want = i
							break
						}
					}
					h := res.Summary.Hits[k]
					if h.Index != want {
						t.Fatalf("%s, %d workers, cap %d, probe %d: hit %d, want %d", name, n, cap, k, h.Index, want)
					}
					if want < 0 {
						continue
					}
					if !slices.Equal(h.Words, g.Runtime(want, nil)) {
						t.Errorf("%s, probe %d: words %v, want %v", name, k, h.Words, g.Runtime(want, nil))
					}
					var path []explore.Step
					for _, l := range h.Path {
						path = append(path, g.StepOf(l))
					}
					if !slices.Equal(path, g.Path(want)) {
						t.Errorf("%s, probe %d: path %v, want %v", name, k, path, g.Path(want))
					}
				}
			}
		}
	}
}
