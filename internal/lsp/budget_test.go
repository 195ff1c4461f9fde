package lsp

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// slowAnalyses makes every analysis of the session's workspace take until
// its context ends, as a long lint or search that honours its context
// does (the real ones finish in milliseconds on anything small enough to
// open), and returns the bound within which one must stop once its
// context has ended: the few milliseconds of the real analysis after it,
// with a wide margin.
func slowAnalyses(s *session) time.Duration {
	s.srv.ws.prelude = func(ctx context.Context) { <-ctx.Done() }
	return 3 * time.Second
}

const slowSource = "state R { state A; [*] -> A; }\n"

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
	s := startSession(t, Options{RequestTimeout: budget})
	bound := slowAnalyses(s)
	src := slowSource
	uri := "file:///tmp/slow.fcstm"
	s.open(uri, "fcstm", src)
	s.diagnostics(uri, notChecked)
	waitIdle(t, s, bound, "after the budget")
}

// Ten edits, each before the analysis of the last ends: a newer version
// stops the older analysis, at most one runs at a time, and none is left
// once the last has answered.
func TestRapidEditsOneAnalysis(t *testing.T) {
	const budget = 300 * time.Millisecond
	s := startSession(t, Options{RequestTimeout: budget, Debounce: 5 * time.Millisecond})
	bound := slowAnalyses(s)
	src := slowSource
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
	uri := "file:///tmp/slow.fcstm"
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
