package prove

import (
	"context"
	"testing"
	"time"
)

// A cancelled attempt proves nothing, even a problem the triple rule
// alone proves: every property is undecided with the reason "cancelled".
func TestCancelledProveIsUndecided(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := benchProblem(t, "counter2.smt2")
	if r := mustProve(t, p, Options{}); r.Verdict != "proved" {
		t.Fatalf("uncancelled: %s, want proved (the test needs a provable problem)", r.Verdict)
	}
	r := mustProve(t, p, Options{Context: ctx})
	if r.Verdict != "unknown" || r.ExitCode() != 3 || r.Certificate != nil {
		t.Errorf("cancelled: verdict %s, exit %d, certificate %v; want unknown, 3, none", r.Verdict, r.ExitCode(), r.Certificate)
	}
	for _, pr := range r.Props {
		if pr.Status != Unknown || pr.Reason != "cancelled" {
			t.Errorf("%s: %s (%s), want unknown (cancelled)", pr.ID, pr.Status, pr.Reason)
		}
	}
}

// Cancelling while the layers run stops all of them, Spacer's goroutine
// included: budget-hard.smt2 runs its whole 60 s budget uncancelled.
func TestCancelStopsEveryLayer(t *testing.T) {
	p := benchProblem(t, "budget-hard.smt2")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	r := mustProve(t, p, Options{TimeoutMS: 60000, Context: ctx})
	if r.Verdict != "unknown" || r.Props[0].Reason != "cancelled" {
		t.Errorf("verdict %s (%s), want unknown (cancelled)", r.Verdict, r.Props[0].Reason)
	}
	// Generous: the point is that the work stopped, not how fast.
	if elapsed := time.Since(start); elapsed > 20*time.Second {
		t.Errorf("a cancelled prove ran %v", elapsed)
	}
}

// The budget counts from Options.Start: one that is already spent leaves
// no time for any layer.
func TestBudgetCountsFromStart(t *testing.T) {
	p := benchProblem(t, "budget-hard.smt2")
	r := mustProve(t, p, Options{TimeoutMS: 1000, Start: time.Now().Add(-time.Hour)})
	if r.Verdict != "unknown" {
		t.Fatalf("verdict %s, want unknown", r.Verdict)
	}
	for _, l := range r.Layers {
		if l.Layer != "triple" && l.Layer != "bmc" && l.Layer != "strengthen" && l.Outcome != "unknown" {
			t.Errorf("layer %s ran (%s: %s) with the budget spent", l.Layer, l.Outcome, l.Detail)
		}
	}
}
