// Package bmcjson runs the bounded model checker on a JSON model and
// replays its witness on the JSON runtime. It is the one place that joins
// the symbolic engine (package bmc, which knows no front end) with the
// concrete oracle (package runtime); the CLI and the MCP server both call
// it. A later front end gets a sibling package of its own.
package bmcjson

import (
	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// Check solves the bound query q over sys (the lowering of m) in ctx and,
// when the solver produced a model, replays it on m's runtime. modelPath
// and queryPath only label the report.
func Check(ctx *z3.Context, m *jsonmodel.Model, sys *sts.System, q *query.Query, opts bmc.Options, modelPath, queryPath string) (*bmc.Report, error) {
	res, err := bmc.Solve(ctx, sys, q, opts)
	if err != nil {
		return nil, err
	}
	rep := &bmc.Report{ModelPath: modelPath, QueryPath: queryPath, Query: query.Format(q), Result: res}
	if res.Trace != nil {
		rep.Replay = runtime.Compile(m).Replay(res.Trace)
	}
	return rep, nil
}
