package frontend

import (
	"fmt"
	"time"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// DefaultMaxBound is the largest bound accepted unless raised (the CLI's
// --max-bound): the encoding grows linearly with the bound, so a mistyped
// bound would unroll for minutes.
const DefaultMaxBound = 10000

// Check solves the bound query q over m's system in ctx and, when the
// solver produced a trace, replays it on m's runtime. queryPath only
// labels the report.
func Check(ctx *z3.Context, m *Model, q *query.Query, opts bmc.Options, queryPath string) (*bmc.Report, error) {
	res, err := bmc.Solve(ctx, m.System, q, opts)
	if err != nil {
		return nil, err
	}
	return report(m, q, res, queryPath), nil
}

// CheckAll is Check for several bound queries over m's system (the
// invariant queries of a --bound run): bmc.SolveAll encodes their shared
// unrolling once; each result is replayed on its own, and the reports come
// in the order of qs.
//
// When the format has a DepthSearch, a verdict that rests on the absence
// of a run may carry the every-depth note (see everyDepth).
func CheckAll(ctx *z3.Context, m *Model, qs []*query.Query, opts bmc.Options, queryPath string) ([]*bmc.Report, error) {
	start := opts.Start
	if start.IsZero() {
		start = time.Now()
	}
	results, err := bmc.SolveAll(ctx, m.System, qs, opts)
	if err != nil {
		return nil, err
	}
	reports := make([]*bmc.Report, len(qs))
	for i, res := range results {
		// The first query's budget began at start (loading included),
		// each later one's with its solve.
		spent := time.Duration(res.TotalElapsedMS * float64(time.Millisecond))
		if i == 0 {
			spent = time.Since(start)
		}
		if opts.Context == nil || opts.Context.Err() == nil {
			everyDepth(m, qs[i], res, opts.TimeoutMS, spent)
		}
		reports[i] = report(m, qs[i], res, queryPath)
	}
	return reports, nil
}

// everyDepthStates caps the explicit search behind the every-depth note:
// it is a remark on a verdict already given, so a larger space goes
// without it rather than making bmc slow or large.
const everyDepthStates = 100_000

// everyDepth adds to res, a verdict that rests on the absence of a run
// (property_satisfied, no_witness), that it holds at every depth when an
// explicit search of m, within a tenth of the budget left and
// everyDepthStates, finds the reachable space finite, reaches every
// state of it within the bound, and gives the same every-depth answer
// (docs/queries.md, "When the bound is enough"). A search that was
// capped, ran out of time, met a raise or cannot model q exactly adds
// nothing: the note is never a guess.
func everyDepth(m *Model, q *query.Query, res *bmc.Result, timeoutMS int, spent time.Duration) {
	if m.Depths == nil || res.Outcome != "property_satisfied" && res.Outcome != "no_witness" {
		return
	}
	if timeoutMS <= 0 {
		timeoutMS = bmc.DefaultTimeoutMS
	}
	share := (time.Duration(timeoutMS)*time.Millisecond - spent) / 10
	if share <= 0 {
		return
	}
	// A state deeper than the bound ends the search: the note is out of
	// reach, however the search would end.
	depth := q.Check.Bound
	if q.Check.Kind == query.Cover {
		depth-- // a case is taken on the step out of the deepest state
	}
	if depth < 1 {
		return // no model has every state at its start
	}
	a, ok := m.Depths.AllDepths(q, DepthLimits{States: everyDepthStates, Depth: depth, Deadline: time.Now().Add(share)})
	if ok && a.Outcome == res.Outcome && a.Diameter <= depth {
		res.EveryDepth = &bmc.EveryDepth{States: a.States, Diameter: a.Diameter}
	}
}

// report labels res and replays its trace, if any, on m's runtime.
func report(m *Model, q *query.Query, res *bmc.Result, queryPath string) *bmc.Report {
	rep := &bmc.Report{ModelPath: m.Path, QueryPath: queryPath, Query: query.Format(q), Result: res}
	if res.Trace != nil && m.Replayer != nil {
		rep.Replay = m.Replayer.Replay(res.Trace)
	}
	return rep
}

// InvariantQueries turns each invariant of m into a bound query (the
// CLI's --bound, the MCP bmc tool's bound): an invariant whose placements
// are all `false` forbids its locations; any other holds its placements,
// each as active(L) -> F, and AtStart at frame 0. The queries are trees
// with every variable written var("…"), so no model name can read as the
// frame index, a constant or a keyword.
func InvariantQueries(m *Model, bound int) ([]*query.Query, error) {
	if len(m.Invariants) == 0 {
		return nil, fmt.Errorf("--bound: %s declares no state-predicate invariant to check (never-states or var-in-range)", m.Path)
	}
	var out []*query.Query
	for _, inv := range m.Invariants {
		kind, body := invariantBody(&inv)
		q, err := query.Build("<invariant "+inv.ID+">", &query.Query{Check: query.Check{Kind: kind, Bound: bound, Body: body}})
		if err != nil {
			return nil, fmt.Errorf("invariant %q: %w", inv.ID, err)
		}
		if err := query.Bind(q, m.System, query.BindOptions{}); err != nil {
			return nil, fmt.Errorf("invariant %q: %w", inv.ID, err)
		}
		out = append(out, q)
	}
	return out, nil
}

func invariantBody(inv *Invariant) (query.Kind, expr.Expr) {
	if inv.AtStart == nil && allFalse(inv.Placements) {
		var body expr.Expr
		for _, p := range inv.Placements {
			body = join(expr.Lor, body, active(p.Location))
		}
		return query.Forbid, body
	}
	var body expr.Expr
	if inv.AtStart != nil {
		first := &expr.Binary{Op: expr.Eq, X: &expr.Ident{Name: "cycle"}, Y: &expr.IntLit{Value: 0}}
		body = &expr.Binary{Op: expr.Implies, X: first, Y: query.VarRefs(inv.AtStart)}
	}
	for _, p := range inv.Placements {
		f := query.VarRefs(p.Formula)
		if p.Location != "" {
			f = &expr.Binary{Op: expr.Implies, X: active(p.Location), Y: f}
		}
		body = join(expr.Land, body, f)
	}
	if body == nil {
		body = &expr.BoolLit{Value: true}
	}
	return query.Invariant, body
}

func allFalse(ps []Placement) bool {
	for _, p := range ps {
		if b, ok := p.Formula.(*expr.BoolLit); !ok || b.Value || p.Location == "" {
			return false
		}
	}
	return len(ps) > 0
}

func active(loc string) expr.Expr {
	return &expr.AtomCall{Name: "active", Args: []expr.Arg{{Value: &expr.StringLit{Value: loc}}}}
}

func join(op expr.Op, a, b expr.Expr) expr.Expr {
	if a == nil {
		return b
	}
	return &expr.Binary{Op: op, X: a, Y: b}
}

// AggregateExit combines the exit codes of several checks: a replay
// mismatch first, then a negative verdict, then an inconclusive one. No
// report at all (a --bound run whose budget ran out while loading) is
// inconclusive: nothing was checked.
func AggregateExit(reports []*bmc.Report) int {
	if len(reports) == 0 {
		return 3
	}
	code := 0
	rank := map[int]int{0: 0, 3: 1, 1: 2, 4: 3}
	for _, r := range reports {
		if c := r.ExitCode(); rank[c] > rank[code] {
			code = c
		}
	}
	return code
}

// BoundJSON is the stateproof/bmc/v1 document of a --bound run: every
// invariant's result, what was skipped, and the aggregate exit code.
func BoundJSON(bound int, reports []*bmc.Report, skipped []string) map[string]any {
	all := make([]any, len(reports))
	for i, r := range reports {
		all[i] = r.JSON()
	}
	if skipped == nil {
		skipped = []string{}
	}
	return map[string]any{"schema": bmc.Schema, "bound": bound, "checks": all, "skipped": skipped, "exit_code": AggregateExit(reports)}
}
