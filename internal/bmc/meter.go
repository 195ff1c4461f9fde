package bmc

import (
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/query"
)

// meter sends a solve's snapshots: which query of how many, the bound
// reached and the stage. Stages change a few times per bound, each after
// work that costs far more than a snapshot, so every change is sent.
type meter struct {
	r                     progress.Reporter
	query, queries, bound int
}

func newMeter(r progress.Reporter, q *query.Query, i, n int) meter {
	if nr, ok := r.(numbered); ok { // solveEach numbers the queries it hands Solve
		r, i, n = nr.r, nr.query, nr.queries
	}
	return meter{r: r, query: i, queries: n, bound: q.Check.Bound}
}

// stage says the solve is at stage of bound n.
func (m *meter) stage(n int, stage string) {
	if m.r == nil {
		return
	}
	m.r.Report(progress.Snapshot{Engine: progress.BMC, Query: m.query, Queries: m.queries, Bound: n, MaxBound: m.bound, Stage: stage})
}

// numbered is the reporter of query i of n that SolveAll hands Solve
// when the queries are solved one by one.
type numbered struct {
	r              progress.Reporter
	query, queries int
}

func (n numbered) Report(s progress.Snapshot) { n.r.Report(s) }
