package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/prove"
	"github.com/stateproof/stateproof/internal/report"
)

// ProveInput is the input of the prove tool.
type ProveInput struct {
	Input
	RSC       string `json:"rsc,omitempty" jsonschema:"reachable state constraints to prove instead of the model's invariants, e.g. rsc \"WAIT\": retry >= 0 && retry <= 3;"`
	Infer     bool   `json:"infer,omitempty" jsonschema:"also return the strongest constraints found per state"`
	TimeoutMS *int   `json:"timeoutMs,omitempty" jsonschema:"total budget in milliseconds (default 10000)"`
	Format    string `json:"format,omitempty" jsonschema:"the model format: json or fcstm; by default a path's extension says it and an inline object is json; inline FCSTM source is a string in model with format fcstm"`
}

var proveTool = &mcp.Tool{
	Name:         "prove",
	Description:  "Prove per-state invariants (reachable state constraints) for every execution, however long: the model's never-states and var-in-range invariants, or the rsc statements given. The model is JSON or FCSTM (a .fcstm path, or FCSTM source text in model with format fcstm; its states are the stoppable leaves and __init__/__terminate__, and it declares no invariants, so give rsc or infer). Returns the stateproof/prove/v1 report: verdict proved (with a certificate re-checked on a fresh solver), violated (with a trace from the start, replayed on the model's runtime) or unknown (with the reason).",
	OutputSchema: contract("prove"),
	Annotations:  annotations(),
}

func (s *server) proveHandler(ctx context.Context, req *mcp.CallToolRequest, in ProveInput) (*mcp.CallToolResult, Report, error) {
	// The budget counts from the call, loading included, as on the
	// command line (docs/queries.md, Budgets).
	opts := prove.Options{Infer: in.Infer, Context: ctx, Start: time.Now(), TimeoutMS: prove.DefaultTimeoutMS}
	if in.TimeoutMS != nil {
		if err := report.CheckRange("timeoutMs", *in.TimeoutMS, 1, -1); err != nil {
			return nil, nil, err
		}
		opts.TimeoutMS = *in.TimeoutMS
	}
	deadline := opts.Start.Add(time.Duration(opts.TimeoutMS) * time.Millisecond)
	name := modelName(&in.Input)
	p, err := frontend.WithinBudget(ctx, deadline, opts.TimeoutMS, "loading "+name, func() (*prove.Problem, error) {
		m, err := s.loadModel(&in.Input, in.Format)
		if err != nil {
			return nil, err
		}
		name = m.Path
		p, err := prove.ModelProblem(m)
		if err == nil && in.RSC != "" {
			p.Props, err = prove.ParseRSC("<rsc>", in.RSC, p.Graph)
		}
		return p, err
	})
	if pt := (*frontend.PhaseTimeout)(nil); errors.As(err, &pt) {
		out, err := asReport(prove.NotLoaded(modelName(&in.Input), opts.Start, pt, in.Infer).JSON())
		return nil, out, err
	}
	if err != nil {
		return nil, nil, err
	}
	if len(p.Props) == 0 && !in.Infer {
		return nil, nil, fmt.Errorf("%s declares no never-states or var-in-range invariant to prove: give rsc statements or infer", name)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var stop func()
	opts.Progress, stop = s.watchProgress(ctx, req)
	defer stop()
	r, err := prove.Prove(p, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err // cancelled: the report would say only that
	}
	out, err := asReport(r.JSON())
	return nil, out, err
}
