package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/bmcjson"
	"github.com/stateproof/stateproof/internal/compose"
	"github.com/stateproof/stateproof/internal/explain"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
	"github.com/stateproof/stateproof/internal/z3"
)

// Input names one model: inline, or a file path. Exactly one is given.
type Input struct {
	Model any    `json:"model,omitempty" jsonschema:"the JSON state-machine model (schema v1) inline; for verify also FCSTM source text as a string"`
	Path  string `json:"path,omitempty" jsonschema:"path of a JSON model file (for verify also a .fcstm file), instead of model"`
}

// VerifyInput is the input of the verify tool.
type VerifyInput struct {
	Input
	MaxStates   int               `json:"maxStates,omitempty" jsonschema:"cap of every breadth-first search (default 10000)"`
	BeforeModel *Input            `json:"beforeModel,omitempty" jsonschema:"the model before the change: adds the regression checks D1-D4"`
	Mapping     map[string]string `json:"stateMapping,omitempty" jsonschema:"BEFORE state id -> AFTER state id"`
}

// ComposeInput is the input of the compose tool.
type ComposeInput struct {
	Machines   []Input  `json:"machines" jsonschema:"two or more models, inline or by path"`
	Rendezvous []string `json:"rendezvous,omitempty" jsonschema:"events that fire only jointly (handshakes)"`
	MaxStates  int      `json:"maxStates,omitempty" jsonschema:"cap of the product search (default 10000)"`
}

// BMCInput is the input of the bmc tool.
type BMCInput struct {
	Input
	Query     string `json:"query" jsonschema:"an FBMCQ query, e.g. check reach <= 6: active(\"SHIPPED\");"`
	TimeoutMS int    `json:"timeoutMs,omitempty" jsonschema:"total solver budget in milliseconds"`
	Shortest  bool   `json:"shortest,omitempty" jsonschema:"return a shortest witness or counterexample"`
	Explain   string `json:"explain,omitempty" jsonschema:"for an infeasible scenario: none (default), formal or proof"`
}

// Report is a tool's structured result: the report contract as JSON.
type Report map[string]any

// New returns the stateproof MCP server with its tools registered.
func New(version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "stateproof", Version: version}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "verify", Description: "Verify a JSON state-machine model (schema v1): structural checks S1-S8, adversarial probes A1-A14, and with beforeModel the regression checks D1-D4. Also an FCSTM model (path ending in .fcstm, or its source text as a string in model): parsed, constructed and linted, load errors located by file:line:col. Returns the logicprobe/verify/v1 report; read `verdict` (pass, pass_with_findings, fail) and quote the findings' `path`. A finding whose code ends in _UNDECIDED means not decided, never pass."}, verifyTool)
	mcp.AddTool(s, &mcp.Tool{Name: "compose", Description: "Run two or more JSON models together and look for composition deadlocks (C1) and rendezvous that never fire (C2). Returns the logicprobe/compose/v1 report."}, composeTool)
	mcp.AddTool(s, &mcp.Tool{Name: "simulate", Description: simulateDescription}, simulateTool)
	addPresentationTools(s)
	mcp.AddTool(s, &mcp.Tool{Name: "bmc", Description: "Bounded model checking with Z3: ask whether something can (reach, cover, exists_always) or must (forbid, invariant, must_reach, response) happen within N steps, in the FBMCQ query language. Returns the stateproof/bmc/v1 result; a witness is replayed on the runtime (`replay.ok`)."}, bmcTool)
	return s
}

// load reads the model of in as bytes.
func (in *Input) load() ([]byte, string, error) {
	switch {
	case in.Model != nil && in.Path != "":
		return nil, "", fmt.Errorf("give the model inline or by path, not both")
	case in.Path != "":
		data, err := os.ReadFile(in.Path)
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

func decode(in *Input) (*jsonmodel.Result, string, error) {
	data, name, err := in.load()
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

func verifyTool(_ context.Context, _ *mcp.CallToolRequest, in VerifyInput) (*mcp.CallToolResult, Report, error) {
	if doc, ok, err := verifyFCSTM(&in); ok {
		if err != nil {
			return nil, nil, err
		}
		out, err := asReport(doc)
		return nil, out, err
	}
	res, _, err := decode(&in.Input)
	if err != nil {
		return nil, nil, err
	}
	opts := verify.DefaultOptions()
	if in.MaxStates > 0 {
		opts.MaxStates = in.MaxStates
	}
	var rep *report.VerifyReport
	if in.BeforeModel != nil {
		before, _, err := decode(in.BeforeModel)
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
	out, err := asReport(rep.JSON())
	return nil, out, err
}

func composeTool(_ context.Context, _ *mcp.CallToolRequest, in ComposeInput) (*mcp.CallToolResult, Report, error) {
	var machines []compose.Input
	for i := range in.Machines {
		res, name, err := decode(&in.Machines[i])
		if err != nil {
			return nil, nil, fmt.Errorf("machines[%d]: %w", i, err)
		}
		machines = append(machines, compose.Input{Name: name, Result: res})
	}
	opts := compose.DefaultOptions()
	opts.Rendezvous = in.Rendezvous
	if in.MaxStates > 0 {
		opts.MaxStates = in.MaxStates
	}
	out, err := asReport(compose.Run(machines, opts).JSON())
	return nil, out, err
}

func bmcTool(_ context.Context, _ *mcp.CallToolRequest, in BMCInput) (*mcp.CallToolResult, Report, error) {
	res, name, err := decode(&in.Input)
	if err != nil {
		return nil, nil, err
	}
	if !res.Valid() {
		return nil, nil, fmt.Errorf("%s is not a valid model: %v", name, res.Errors)
	}
	sys := res.Model.Lower(name)
	q, err := query.Parse("<query>", in.Query)
	if err != nil {
		return nil, nil, err
	}
	if err := query.Bind(q, sys, query.BindOptions{}); err != nil {
		return nil, nil, err
	}
	ctx, err := z3.NewContext()
	if err != nil {
		return nil, nil, err
	}
	defer ctx.Close()
	mode := in.Explain
	if mode == "" {
		mode = "none"
	}
	if mode != "none" && mode != "formal" && mode != "proof" {
		return nil, nil, fmt.Errorf("explain must be none, formal or proof (got %q)", mode)
	}
	rep, err := bmcjson.Check(ctx, res.Model, sys, q, bmc.Options{TimeoutMS: in.TimeoutMS, Shortest: in.Shortest, Explain: mode, Explainer: explain.Explain}, name, "")
	if err != nil {
		return nil, nil, err
	}
	out, err := asReport(rep.JSON())
	return nil, out, err
}
