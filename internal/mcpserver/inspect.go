package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/inspect"
	"github.com/stateproof/stateproof/internal/report"
)

// InspectInput is the input of the inspect tool.
type InspectInput struct {
	Model  string   `json:"model,omitempty" jsonschema:"FCSTM source text, instead of path"`
	Path   string   `json:"path,omitempty" jsonschema:"path of an FCSTM model file (.fcstm), instead of model"`
	Ignore []string `json:"ignore,omitempty" jsonschema:"codes not to report, e.g. W_UNUSED_EVENT (counted in suppressed)"`
	// Search, MaxStates and TimeoutMS are `stateproof inspect --search
	// --max-states N --timeout-ms N`.
	Search    bool `json:"search,omitempty" jsonschema:"also decide W_UNREACHABLE_STATE by an exhaustive search of the reachable configurations (basis search, with the count searched); a search stopped early claims nothing and is listed in undecided"`
	MaxStates *int `json:"maxStates,omitempty" jsonschema:"state cap of the search (default 100000), with search"`
	TimeoutMS *int `json:"timeoutMs,omitempty" jsonschema:"time budget of the search in milliseconds (default 2000), with search"`
}

var inspectTool = &mcp.Tool{
	Name:        "inspect",
	Description: "Design-health diagnostics on an FCSTM model (a .fcstm path, or its source text in model), with pyfcstm's code names: unreachable states, unused events and variables, constant guards, self-assignments, numeric hazards of the C/C++ targets. Returns the stateproof/inspect/v1 document, as `stateproof inspect --format json`: each diagnostic has code, severity, message, file, span (1-based line/column to end_line/end_column), basis and refs (pyfcstm's field names). `loaded` false means the model does not load and the diagnostics are its load errors. With search true, W_UNREACHABLE_STATE is also decided by an exhaustive search of the reachable configurations (basis search, refs.configurations_searched); a search stopped at maxStates or timeoutMs claims nothing and is listed in undecided. docs/inspect.md describes every code.",
	Annotations: annotations(),
}

// inspectHandler presents package inspect's result as it is: the tool's
// output schema is inferred from inspect.Result, the type the command
// line marshals.
func (s *server) inspectHandler(ctx context.Context, _ *mcp.CallToolRequest, in InspectInput) (*mcp.CallToolResult, *inspect.Result, error) {
	for i, c := range in.Ignore {
		if !inspect.IsCodeName(c) {
			return nil, nil, fmt.Errorf("ignore[%d] %q is not a diagnostic code (codes look like W_UNUSED_EVENT; see docs/inspect.md)", i, c)
		}
	}
	opts := inspect.Options{Model: model.ReaderOptions(s.cfg.Files), Ignore: in.Ignore, Search: in.Search}
	for _, b := range []struct {
		name string
		v    *int
		dst  *int
	}{{"maxStates", in.MaxStates, &opts.MaxStates}, {"timeoutMs", in.TimeoutMS, &opts.TimeoutMS}} {
		if b.v == nil {
			continue
		}
		if !in.Search {
			return nil, nil, fmt.Errorf("%s applies to the search only: set search true", b.name)
		}
		if err := report.CheckRange(b.name, *b.v, 1, -1); err != nil {
			return nil, nil, err
		}
		*b.dst = *b.v
	}
	var res *inspect.Result
	switch {
	case in.Model != "" && in.Path != "":
		return nil, nil, fmt.Errorf("give the model inline or by path, not both")
	case in.Path != "":
		var err error
		if res, err = inspect.File(in.Path, opts); err != nil {
			return nil, nil, err
		}
	case in.Model != "":
		res = inspect.Source("<inline model>", []byte(in.Model), opts)
	default:
		return nil, nil, fmt.Errorf("no model: give `model` (FCSTM source text) or `path`")
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return nil, res, nil
}
