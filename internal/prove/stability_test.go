package prove

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/z3"
)

// termIDs appends to out the Z3 ID of t and of every term under it, each
// shared subterm once, in depth-first order.
func termIDs(t *testing.T, f *z3.Term, seen map[uint32]bool, out []string) []string {
	id := f.ID()
	if seen[id] {
		return out
	}
	seen[id] = true
	out = append(out, fmt.Sprint(id))
	var subs []*z3.Term
	switch f.Kind() {
	case z3.KindApp:
		args, err := f.Args()
		if err != nil {
			t.Fatal(err)
		}
		subs = args
	case z3.KindQuantifier:
		q, err := f.Quantifier()
		if err != nil {
			t.Fatal(err)
		}
		subs = []*z3.Term{q.Body}
	}
	for _, s := range subs {
		out = termIDs(t, s, seen, out)
	}
	return out
}

// proveChecks proves a fresh problem from load and returns, for every
// check the attempt made, the solver's SMT-LIB text and the IDs of the
// terms of the formulas asserted for it. When gc is set, the collector
// runs before every check too.
func proveChecks(t *testing.T, load func() *Problem, opts Options, gc bool) []string {
	t.Helper()
	return proveChecksResult(t, load, opts, gc, nil)
}

// proveChecksResult is proveChecks that also stores the result in res
// (when not nil).
func proveChecksResult(t *testing.T, load func() *Problem, opts Options, gc bool, res **Result) []string {
	t.Helper()
	var checks []string
	opts.onCheck = func(s *z3.Solver, asserted []*z3.Term) {
		seen := map[uint32]bool{}
		var ids []string
		for _, f := range asserted {
			ids = termIDs(t, f, seen, ids)
		}
		checks = append(checks, s.String()+"\n; ids "+strings.Join(ids, " "))
		if gc {
			runtime.GC()
		}
	}
	p := load()
	r, err := Prove(p, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res != nil {
		*res = r
	}
	return checks
}

// The solver's input is the same on every run of prove: the same checks,
// each with the same SMT-LIB text and its terms with the same Z3 IDs. Z3
// recycles the IDs of dead terms and orders terms by ID in its
// simplifier and search (Spacer's too), so a term whose ID depended on
// when Go's garbage collector freed another would send the same query
// down another path (issue 38 items 3 and 6; docs/fcstm.md, "Run-to-run
// time"). The runs alternate between a collector that runs all the time
// (and before every check) and one that never runs. The layers run in
// turn, with time enough that none is cut short, so that the checks made
// depend on the problem only.
func TestSolverInputIsDeterministic(t *testing.T) {
	chcSrc, err := os.ReadFile("../../bench/fib.smt2")
	if err != nil {
		t.Fatal(err)
	}
	problems := []struct {
		name   string
		load   func() *Problem
		layers []string
	}{
		{"retry.fcstm", func() *Problem {
			return withRSC(t, loadFCSTM(t, fcstmRetry), "retry.rsc", readFile(t, "../../examples/fcstm/retry.rsc"))
		}, []string{"triple", "kind", "intervals"}},
		{"fib.smt2", func() *Problem {
			ctx, err := z3.NewContext()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ctx.Close() })
			p, err := CHCProblem(ctx, "fib.smt2", string(chcSrc))
			if err != nil {
				t.Fatal(err)
			}
			return p
		}, []string{"triple", "spacer"}},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, pr := range problems {
		t.Run(pr.name, func(t *testing.T) {
			opts := Options{Workers: 1, MaxK: 2, BMCDepth: 4, TimeoutMS: 600000, QueryTimeoutMS: 600000, SpacerSlice: 1 << 31, Layers: pr.layers}
			debug.SetGCPercent(-1)
			first := proveChecks(t, pr.load, opts, false)
			if len(first) == 0 {
				t.Fatal("no check was made")
			}
			for run := 1; run < 4; run++ {
				gc := run%2 == 1
				debug.SetGCPercent(map[bool]int{true: 1, false: -1}[gc])
				checks := proveChecks(t, pr.load, opts, gc)
				compareChecks(t, run, first, checks)
			}
		})
	}
}

// compareChecks fails at the first line where run's checks differ from
// run 0's.
func compareChecks(t *testing.T, run int, first, checks []string) {
	t.Helper()
	if len(checks) != len(first) {
		t.Fatalf("run %d made %d checks, run 0 made %d", run, len(checks), len(first))
	}
	for i := range checks {
		if checks[i] == first[i] {
			continue
		}
		a, b := strings.Split(first[i], "\n"), strings.Split(checks[i], "\n")
		for j := range min(len(a), len(b)) {
			if a[j] != b[j] {
				t.Fatalf("run %d, check %d differs from run 0 at line %d:\n%.300s\n%.300s", run, i, j+1, a[j], b[j])
			}
		}
		t.Fatalf("run %d, check %d: %d lines, run 0: %d", run, i, len(b), len(a))
	}
}

// Spacer's first slice, when the layers run in turn, ends at a fixed
// amount of Z3's work (SpacerSlice, an rlimit), not at a wall-clock time:
// in wall time a loaded machine let it do less, leaving fewer terms in
// the shared context, so the layers after it saw other term IDs and took
// other paths, and prove's CPU time varied over 2× from run to run (issue
// 38; bench/prove-stability.sh). Here the runs vary what a wall-clock
// slice would feel: goroutines competing for the CPU, GOMAXPROCS, and the
// collector run before every check or never. Every check of every run
// (Spacer's slice, the layers after it and Spacer's second slice, which
// proves) has the same input, and every layer ends the same way.
func TestSpacerSliceIsLoadIndependent(t *testing.T) {
	if testing.Short() {
		t.Skip("proves one problem six times, some under load")
	}
	src := readFile(t, "../../bench/fib.smt2")
	load := func() *Problem {
		ctx, err := z3.NewContext()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ctx.Close() })
		p, err := CHCProblem(ctx, "fib.smt2", src)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Spacer proves fib.smt2 in its second slice, not in a first one
	// this short.
	opts := Options{Workers: 1, MaxK: 2, BMCDepth: 4, TimeoutMS: 600000, QueryTimeoutMS: 600000, SpacerSlice: 3000,
		Layers: []string{"triple", "spacer"}}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first []string
	var firstEnds string
	for run := range 6 {
		gc, busy, procs := run%2 == 1, 2*(run%3), 1+run%2
		runtime.GOMAXPROCS(procs)
		debug.SetGCPercent(map[bool]int{true: 100, false: -1}[gc])
		stop := spin(busy)
		var res *Result
		checks := proveChecksResult(t, load, opts, gc, &res)
		stop()
		var ends []string
		for _, l := range res.Layers {
			ends = append(ends, l.Layer+" "+l.Outcome)
		}
		got := strings.Join(ends, ", ")
		if run == 0 {
			first, firstEnds = checks, got
			if got != "triple ctis, spacer unknown, bmc none, spacer proved" {
				t.Fatalf("layers ended %s: the test wants Spacer's first slice to run out and its second to prove", got)
			}
			continue
		}
		if got != firstEnds {
			t.Fatalf("run %d (GOMAXPROCS %d, %d busy, gc %v): layers ended %s; run 0: %s", run, procs, busy, gc, got, firstEnds)
		}
		compareChecks(t, run, first, checks)
	}
}

// spin keeps n goroutines busy until the returned function is called.
func spin(n int) (stop func()) {
	done := make(chan struct{})
	for range n {
		go func() {
			for {
				select {
				case <-done:
					return
				default:
					runtime.Gosched() // busy, but lets the test's own goroutines run
				}
			}
		}()
	}
	return func() { close(done) }
}
