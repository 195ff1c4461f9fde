package bmc

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

func loadModel(t *testing.T, path string) (*jsonmodel.Model, *sts.System) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		t.Fatalf("model: %v %v", err, res.Errors)
	}
	return res.Model, res.Model.Lower(path)
}

func active(name string) expr.Expr {
	return &expr.AtomCall{Name: "active", Args: []expr.Arg{{Value: &expr.StringLit{Value: name}}}}
}

func solve(t *testing.T, sys *sts.System, q *query.Query, opts Options) *Result {
	t.Helper()
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	r, err := Solve(ctx, sys, q, opts)
	if err != nil {
		t.Fatalf("solve: %v", err)
	}
	return r
}

func TestReachFailedAndReplay(t *testing.T) {
	m, sys := loadModel(t, "../../examples/retry.json")
	q := &query.Query{Check: query.Check{Kind: query.Reach, Bound: 6, Body: active("FAILED")}}
	r := solve(t, sys, q, Options{Shortest: true})
	if r.Outcome != "witness_found" || r.Trace == nil {
		t.Fatalf("outcome %s", r.Outcome)
	}
	if r.SolvedBound != 5 {
		t.Errorf("shortest witness at bound %d, want 5 (request, 3 retries, give up)", r.SolvedBound)
	}
	rep := runtime.Compile(m).Replay(r.Trace)
	if !rep.OK() {
		t.Fatalf("replay mismatches: %v", rep.Mismatches)
	}
	// A tampered witness must fail replay with the exact variable path.
	r.Trace.Frames[2].Vars[0].Value = int64(7)
	rep = runtime.Compile(m).Replay(r.Trace)
	if rep.OK() || rep.Mismatches[0].Path != "frames[2].vars.retry" {
		t.Errorf("tampered replay: %v", rep.Mismatches)
	}
}

// The time budget covers the encoding: a solve whose Context is done (the
// caller cancelled, or the budget ran out) stops unrolling at the next
// frame and ends in timeout, never in a verdict.
func TestCancelledWhileEncoding(t *testing.T) {
	_, sys := loadModel(t, "../../examples/order.json")
	q := &query.Query{Check: query.Check{Kind: query.Forbid, Bound: 3000, Body: &expr.BoolLit{Value: false}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := solve(t, sys, q, Options{Context: ctx})
	if r.Outcome != "timeout" || r.Satisfied != nil || r.SolvedBound != 0 || !slices.Contains(r.Diagnostics, "timeout:deadline_exhausted_while_encoding") {
		t.Errorf("outcome %s at bound %d, diagnostics %v; want timeout while encoding at bound 0", r.Outcome, r.SolvedBound, r.Diagnostics)
	}
}
