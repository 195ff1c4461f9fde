package lsp

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// chainModel is a chain of n states, written so that each transition
// comes before the one that leads to its source: the lints' fixpoint then
// takes about n rounds over the live states, seconds for a few thousand,
// while parsing and construction take a fraction of that.
func chainModel(n int) string {
	var b strings.Builder
	b.WriteString("state R {\n    [*] -> S0;\n")
	for i := range n {
		fmt.Fprintf(&b, "    state S%d;\n", i)
	}
	for i := n - 1; i > 0; i-- {
		fmt.Fprintf(&b, "    S%d -> S%d;\n", i-1, i)
	}
	b.WriteString("}\n")
	return b.String()
}

const chainStates = 8000

// stopBound is how long an analysis of src may go on after its context
// ends: what cannot be cut short (parse and construction, timed here),
// with a 3x margin, and a second of slack.
func stopBound(t *testing.T, src string, budget time.Duration) time.Duration {
	start := time.Now()
	if _, err := model.Parse("/tmp/chain.fcstm", src, model.Options{}); err != nil {
		t.Fatal(err)
	}
	return 3*(time.Since(start)+budget) + time.Second
}

// waitIdle waits until no analysis runs, failing the test after bound.
func waitIdle(t *testing.T, s *session, bound time.Duration, what string) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for s.srv.ws.analyses.count() > 0 {
		if time.Now().After(deadline) {
			t.Errorf("%s: an analysis still runs %v later", what, bound)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func notChecked(p publishDiagnosticsParams) bool {
	return len(p.Diagnostics) == 1 && p.Diagnostics[0].Code == "LSP_NOT_CHECKED"
}

// An analysis answered "not checked" at its budget stops: it does not go
// on using a core for the seconds it would take.
func TestAnalysisStopsAtBudget(t *testing.T) {
	const budget = 200 * time.Millisecond
	src := chainModel(chainStates)
	bound := stopBound(t, src, budget)
	s := startSession(t, Options{RequestTimeout: budget})
	uri := "file:///tmp/chain.fcstm"
	s.open(uri, "fcstm", src)
	s.diagnostics(uri, notChecked)
	waitIdle(t, s, bound, "after the budget")
}

// Ten edits, each before the analysis of the last ends: a newer version
// stops the older analysis, at most one runs at a time, and none is left
// once the last has answered.
func TestRapidEditsOneAnalysis(t *testing.T) {
	const budget = 300 * time.Millisecond
	src := chainModel(chainStates)
	bound := stopBound(t, src, budget)
	s := startSession(t, Options{RequestTimeout: budget, Debounce: 5 * time.Millisecond})
	var most atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if n := int64(s.srv.ws.analyses.count()); n > most.Load() {
				most.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	uri := "file:///tmp/chain.fcstm"
	s.open(uri, "fcstm", src)
	for v := 2; v <= 11; v++ {
		time.Sleep(50 * time.Millisecond) // past the debounce: an analysis starts
		s.change(uri, v, edit(rng(0, 0, 0, 0), " "))
	}
	s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 11 && notChecked(p) })
	waitIdle(t, s, bound, "after the last edit's budget")
	close(stop)
	<-sampled
	if n := most.Load(); n > 1 {
		t.Errorf("%d analyses of one document ran at once", n)
	}
}
