package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/compose"
	"github.com/stateproof/stateproof/internal/explain"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/formats"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
)

// Input names one model: inline, or a file path. Exactly one is given.
type Input struct {
	Model any    `json:"model,omitempty" jsonschema:"the JSON state-machine model (schema v1) inline; for verify, and for bmc with format fcstm, also FCSTM source text as a string"`
	Path  string `json:"path,omitempty" jsonschema:"path of a JSON model file (for verify and bmc also a .fcstm file), instead of model"`
}

// VerifyInput is the input of the verify tool.
type VerifyInput struct {
	Input
	MaxStates   *int              `json:"maxStates,omitempty" jsonschema:"cap of every breadth-first search (default 10000)"`
	BeforeModel *Input            `json:"beforeModel,omitempty" jsonschema:"the model before the change: adds the regression checks D1-D4"`
	Mapping     map[string]string `json:"stateMapping,omitempty" jsonschema:"BEFORE state id -> AFTER state id"`
	Query       string            `json:"query,omitempty" jsonschema:"FCSTM models only: an FBMCQ query (any of the seven bounded kinds, or an ltl check with its fairness clauses; docs/fcstm.md#queries-decided-by-search) to decide by explicit search, e.g. check reach <= 6: active(\"Door.Open\"); the answer is the report's queries section"`
	QueryPath   string            `json:"queryPath,omitempty" jsonschema:"FCSTM models only: path of an .fbmcq file, instead of query"`
	AllDepths   bool              `json:"allDepths,omitempty" jsonschema:"with query or queryPath: decide it for every depth, its bound aside (reach, cover, forbid, invariant; not_decided when the reachable space is not finite within maxStates)"`
}

// ComposeInput is the input of the compose tool.
type ComposeInput struct {
	Machines   []Input  `json:"machines" jsonschema:"two or more models, inline or by path"`
	Rendezvous []string `json:"rendezvous,omitempty" jsonschema:"events that fire only jointly (handshakes)"`
	MaxStates  *int     `json:"maxStates,omitempty" jsonschema:"cap of the product search (default 10000)"`
}

// BMCInput is the input of the bmc tool.
type BMCInput struct {
	Input
	Query     string `json:"query,omitempty" jsonschema:"an FBMCQ query, e.g. check reach <= 6: active(\"SHIPPED\"); (or give bound)"`
	Bound     *int   `json:"bound,omitempty" jsonschema:"instead of a query: check every never-states and var-in-range invariant of the model to this depth"`
	TimeoutMS *int   `json:"timeoutMs,omitempty" jsonschema:"total budget in milliseconds for loading, encoding and solving, counted from the request (default 30000)"`
	Shortest  bool   `json:"shortest,omitempty" jsonschema:"return a shortest witness or counterexample"`
	Explain   string `json:"explain,omitempty" jsonschema:"for an infeasible scenario: none (default), formal or proof"`
	Format    string `json:"format,omitempty" jsonschema:"the model format: json or fcstm; by default a path's extension says it and an inline object is json; inline FCSTM source is a string in model with format fcstm"`
}

// Report is a tool's structured result: the report contract as JSON.
type Report map[string]any

// Config is what a server may read: model files through Files, whose Root
// confines paths to the served directory (stateproof mcp --root).
type Config struct {
	Files input.Reader
	// ProgressEvery is how often a call with a progress token is sent
	// notifications/progress (0: DefaultProgressEvery).
	ProgressEvery time.Duration
}

// server holds the configuration the tools share.
type server struct {
	cfg Config
	// returned, when set (tests), hears each engine tool's call return,
	// so a test can tell that a cancelled run's work has stopped.
	returned func(tool string, err error)
}

// New returns the stateproof MCP server with its tools registered.
func New(version string, cfg Config) *mcp.Server {
	return newServer(version, &server{cfg: cfg})
}

func newServer(version string, srv *server) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "stateproof", Version: version}, &mcp.ServerOptions{Instructions: instructions})
	verifyTool, composeTool, bmcTool := tracked(srv, "verify", srv.verifyTool), tracked(srv, "compose", srv.composeTool), tracked(srv, "bmc", srv.bmcTool)
	mcp.AddTool(s, &mcp.Tool{Name: "verify", Description: "Verify a JSON state-machine model (schema v1): structural checks S1-S8, adversarial probes A1-A15 (A15, the LTL check, only with an ltl invariant), and with beforeModel the regression checks D1-D4. Also an FCSTM model (path ending in .fcstm, or its source text as a string in model): parsed, constructed, linted and searched up to maxStates (FCSTM-S1: cycles that raise, dead ends, unreached states; not_decided at the cap), load errors located by file:line:col; with query or queryPath, one FBMCQ query is decided by explicit search instead, to its bound or with allDepths at every depth, answered in `queries` with bmc's outcome names. Returns the logicprobe/verify/v1 report; read `verdict` (pass, pass_with_findings, not_decided, fail) and quote the findings' `path`. A finding whose code ends in _UNDECIDED means not decided, never pass.", OutputSchema: contract("verify"), Annotations: annotations()}, verifyTool)
	mcp.AddTool(s, &mcp.Tool{Name: "compose", Description: "Run two or more JSON models together and look for composition deadlocks (C1) and rendezvous that never fire (C2). Returns the logicprobe/compose/v1 report.", OutputSchema: contract("compose"), Annotations: annotations()}, composeTool)
	mcp.AddTool(s, &mcp.Tool{Name: "simulate", Description: simulateDescription, OutputSchema: contract("simulate"), Annotations: annotations()}, tracked(srv, "simulate", srv.simulateTool))
	srv.addPresentationTools(s)
	mcp.AddTool(s, &mcp.Tool{Name: "bmc", Description: "Bounded model checking with Z3: ask whether something can (reach, cover, exists_always) or must (forbid, invariant, must_reach, response) happen within N steps, in the FBMCQ query language, or with bound (no query) check every never-states and var-in-range invariant of the model to that depth. The model is JSON or FCSTM (a .fcstm path, or FCSTM source text in model with format fcstm); FCSTM declares no invariants, so bound applies to JSON models. Returns the stateproof/bmc/v1 result; a witness is replayed on the model's own runtime (`replay.ok`).", OutputSchema: contract("bmc"), Annotations: annotations()}, bmcTool)
	mcp.AddTool(s, proveTool, tracked(srv, "prove", srv.proveHandler))
	mcp.AddTool(s, inspectTool, srv.inspectHandler)
	mcp.AddTool(s, generateTool, srv.generateHandler)
	addSchemaResources(s)
	return s
}

// load reads the model of in as bytes.
func (in *Input) load(files input.Reader) ([]byte, string, error) {
	switch {
	case in.Model != nil && in.Path != "":
		return nil, "", fmt.Errorf("give the model inline or by path, not both")
	case in.Path != "":
		data, err := files.ReadFile(in.Path)
		if err != nil {
			return nil, "", fmt.Errorf("cannot read %s: %w", in.Path, err)
		}
		return data, in.Path, nil
	case in.Model != nil:
		data, err := json.Marshal(in.Model)
		return data, "<inline model>", err
	}
	return nil, "", fmt.Errorf("no model: give `model` (inline JSON) or `path`")
}

// loadModel loads the model of in for the engines, in the format named
// by format, else the one its path's extension says; an inline JSON
// object is JSON text, an inline string is source text of the named
// format.
func (s *server) loadModel(in *Input, format string) (*frontend.Model, error) {
	reg := formats.Registry()
	switch {
	case in.Model != nil && in.Path != "":
		return nil, fmt.Errorf("give the model inline or by path, not both")
	case in.Path != "":
		return reg.Load(s.cfg.Files, in.Path, format)
	case in.Model != nil:
		const name = "<inline model>"
		if src, ok := in.Model.(string); ok {
			if format == "" {
				return nil, fmt.Errorf("model is source text: name its format (%s)", strings.Join(reg.Names(), ", "))
			}
			return reg.LoadSource(s.cfg.Files, name, format, []byte(src))
		}
		data, err := json.Marshal(in.Model)
		if err != nil {
			return nil, err
		}
		if format == "" {
			format = "json"
		}
		return reg.LoadSource(s.cfg.Files, name, format, data)
	}
	return nil, fmt.Errorf("no model: give `model` (inline) or `path`")
}

// modelName labels the reports of in's model before it is loaded, as
// loading labels them after.
func modelName(in *Input) string {
	if in.Path != "" {
		return in.Path
	}
	return "<inline model>"
}

func (s *server) decode(in *Input) (*jsonmodel.Result, string, error) {
	data, name, err := in.load(s.cfg.Files)
	if err != nil {
		return nil, "", err
	}
	res, err := jsonmodel.Decode(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	return res, name, nil
}

// asReport converts a report document to the structured result.
func asReport(doc any) (Report, error) {
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var out Report
	return out, json.Unmarshal(data, &out)
}

func (s *server) verifyTool(ctx context.Context, req *mcp.CallToolRequest, in VerifyInput) (*mcp.CallToolResult, Report, error) {
	opts := verify.DefaultOptions()
	if in.MaxStates != nil {
		opts.MaxStates = *in.MaxStates
	}
	if err := opts.Validate(); err != nil {
		return nil, nil, err
	}
	opts.Done = ctx.Done()
	if in.Mapping != nil && in.BeforeModel == nil {
		return nil, nil, fmt.Errorf("stateMapping needs beforeModel")
	}
	if doc, ok, err := verifyFCSTM(&in, s.cfg.Files); ok {
		if err != nil {
			return nil, nil, err
		}
		out, err := asReport(doc)
		return nil, out, err
	}
	res, _, err := s.decode(&in.Input)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var stop func()
	opts.Progress, stop = s.watchProgress(ctx, req)
	defer stop()
	var rep *report.VerifyReport
	if in.BeforeModel != nil {
		before, _, err := s.decode(in.BeforeModel)
		if err != nil {
			return nil, nil, fmt.Errorf("beforeModel: %w", err)
		}
		if before.Valid() {
			if err := verify.CheckMapping(before.Model, in.Mapping); err != nil {
				return nil, nil, err
			}
		}
		rep = verify.RunComparison(res, before, in.Mapping, opts)
	} else {
		rep = verify.Run(res, opts)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err // the searches stopped early: the report is incomplete
	}
	out, err := asReport(rep.JSON())
	return nil, out, err
}

func (s *server) composeTool(ctx context.Context, req *mcp.CallToolRequest, in ComposeInput) (*mcp.CallToolResult, Report, error) {
	opts := compose.DefaultOptions()
	opts.Rendezvous = in.Rendezvous
	if in.MaxStates != nil {
		opts.MaxStates = *in.MaxStates
	}
	if err := opts.Validate(); err != nil {
		return nil, nil, err
	}
	if len(in.Machines) < 2 {
		return nil, nil, fmt.Errorf("machines: compose needs two or more machines (got %d)", len(in.Machines))
	}
	var machines []compose.Input
	for i := range in.Machines {
		res, name, err := s.decode(&in.Machines[i])
		if err != nil {
			return nil, nil, fmt.Errorf("machines[%d]: %w", i, err)
		}
		machines = append(machines, compose.Input{Name: name, Result: res})
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	opts.Done = ctx.Done()
	var stop func()
	opts.Progress, stop = s.watchProgress(ctx, req)
	defer stop()
	rep := compose.Run(machines, opts)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	out, err := asReport(rep.JSON())
	return nil, out, err
}

func (s *server) bmcTool(ctx context.Context, req *mcp.CallToolRequest, in BMCInput) (*mcp.CallToolResult, Report, error) {
	opts := bmc.Options{Shortest: in.Shortest, Explain: in.Explain, Explainer: explain.Explain, TimeoutMS: bmc.DefaultTimeoutMS}
	if in.TimeoutMS != nil {
		if err := report.CheckRange("timeoutMs", *in.TimeoutMS, 1, -1); err != nil {
			return nil, nil, err
		}
		opts.TimeoutMS = *in.TimeoutMS
	}
	if opts.Explain == "" {
		opts.Explain = "none"
	}
	if err := bmc.CheckExplain(opts.Explain); err != nil {
		return nil, nil, err
	}
	if (in.Query == "") == (in.Bound == nil) {
		return nil, nil, fmt.Errorf("give exactly one of query (an FBMCQ query) or bound (check the model's invariants to that depth)")
	}
	if in.Bound != nil {
		if err := report.CheckRange("bound", *in.Bound, 1, frontend.DefaultMaxBound); err != nil {
			return nil, nil, err
		}
	}
	// The budget counts from the request, so that loading is inside it:
	// a load that outlives it is a timeout report, as in the CLI.
	opts.Start = time.Now()
	opts.Context = ctx // a cancelled request interrupts the loading, the encoding and the solver
	job := &frontend.Job{ModelPath: modelName(&in.Input), MaxBound: frontend.DefaultMaxBound, Options: opts,
		Load: func() (*frontend.Model, error) { return s.loadModel(&in.Input, in.Format) }}
	if in.Bound != nil {
		job.Bound = *in.Bound
	} else {
		q, err := query.Parse("<query>", in.Query)
		if err != nil {
			return nil, nil, err
		}
		job.Query = q
	}
	var stop func()
	job.Options.Progress, stop = s.watchProgress(ctx, req)
	defer stop()
	run, err := job.Run()
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	reports, skipped := run.Reports, run.Skipped
	var doc any
	if in.Bound != nil {
		doc = frontend.BoundJSON(*in.Bound, reports, skipped)
	} else {
		doc = reports[0].JSON()
	}
	out, err := asReport(doc)
	return nil, out, err
}
