package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/simulate"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// SimulateInput is the input of the simulate tool.
type SimulateInput struct {
	Model     string         `json:"model,omitempty" jsonschema:"the FCSTM model text inline (the same parameter as every other tool's)"`
	Source    string         `json:"source,omitempty" jsonschema:"deprecated: the old name of model, still accepted"`
	Path      string         `json:"path,omitempty" jsonschema:"path of an .fcstm file, instead of model"`
	Cycles    [][]string     `json:"cycles" jsonschema:"the cycles to run, each an array of event paths (full, relative to the current state, .x/..x from its ancestors, /x from the root); [] is a cycle without events"`
	InitState string         `json:"initState,omitempty" jsonschema:"hot start at this state (a dotted path), without enter actions; initVars must then give every variable"`
	InitVars  map[string]any `json:"initVars,omitempty" jsonschema:"initial variable values (numbers; \"inf\", \"-inf\", \"nan\" for non-finite floats)"`
}

const simulateDescription = "Run an FCSTM model (or a JSON model given by a .json path, one event per cycle) cycle by cycle. Returns the stateproof/simulate/v1 report: per cycle the state reached, `delta` (no progress), consumed and unconsumed events, the variables, the actions executed in order and the abstract calls with their context; a cycle that raised has `error` (its state and vars are the unchanged pre-cycle values). A model that does not load or cannot start returns only `error` (class parse, validation, or init for an initial value without one or a bad initState/initVars; with file, line and col when located). At most 100000 cycles run; beyond that the report has `stopped` and the rest was not run."

func (srv *server) simulateTool(ctx context.Context, req *mcp.CallToolRequest, in SimulateInput) (*mcp.CallToolResult, Report, error) {
	var m *model.Model
	var name string
	var err error
	if in.Model != "" && in.Source != "" {
		return nil, nil, fmt.Errorf("give the model as model or source (its old name), not both")
	}
	if in.Model != "" {
		in.Source = in.Model
	}
	switch {
	case in.Source != "" && in.Path != "":
		return nil, nil, fmt.Errorf("give the model inline or by path, not both")
	case in.Path != "" && strings.EqualFold(filepath.Ext(in.Path), ".json"):
		return srv.simulateJSON(ctx, req, in)
	case in.Path != "":
		name = in.Path
		m, err = model.LoadWith(in.Path, model.ReaderOptions(srv.cfg.Files))
	case in.Source != "":
		name = "<inline model>"
		m, err = model.Parse(name, in.Source, model.ReaderOptions(srv.cfg.Files))
	default:
		return nil, nil, fmt.Errorf("no model: give `model` (FCSTM text) or `path`")
	}
	if err != nil {
		out, err := exactReport(&simulate.Report{Schema: simulate.Schema, Model: name, Error: simulate.LoadError(err)})
		return nil, out, err
	}
	opts, err := in.options()
	if err != nil {
		return nil, nil, err
	}
	sess, err := simulate.Start(m, name, opts)
	if err == nil { // a start failure is the report's error
		if err := srv.feed(ctx, req, sess, in.Cycles); err != nil {
			return nil, nil, err
		}
	}
	return sessionReport(ctx, sess)
}

// feed runs the cycles, at most simulate.DefaultMaxCycles, watched: the
// client's progress token gets notifications, and a cancelled request
// stops the run between cycles with the context's error (the report
// would be of part of the input).
func (srv *server) feed(ctx context.Context, req *mcp.CallToolRequest, sess *simulate.Session, cycles [][]string) error {
	rep, stop := srv.watchProgress(ctx, req)
	defer stop()
	src := simulate.Watched(&simulate.SliceSource{Cycles: cycles}, ctx.Done(), rep, simulate.DefaultMaxCycles)
	if err := sess.Feed(src, simulate.DefaultMaxCycles, nil); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return nil
}

// options are the run's start: a hot start at initState with initVars,
// or the model's own initial state.
func (in SimulateInput) options() (simulate.Options, error) {
	opts := simulate.Options{InitialState: in.InitState}
	if in.InitVars != nil {
		raw, err := json.Marshal(in.InitVars)
		if err != nil {
			return opts, err
		}
		if opts.InitialVars, err = simulate.ParseInitVars(raw); err != nil {
			return opts, fmt.Errorf("initVars: %w", err)
		}
	}
	return opts, nil
}

// simulateJSON runs a JSON model given by path (one event per cycle).
func (srv *server) simulateJSON(ctx context.Context, req *mcp.CallToolRequest, in SimulateInput) (*mcp.CallToolResult, Report, error) {
	fail := func(class, msg string) (*mcp.CallToolResult, Report, error) {
		out, err := exactReport(&simulate.Report{Schema: simulate.Schema, Model: in.Path, Error: &simulate.ErrorReport{Class: class, Message: msg}})
		return nil, out, err
	}
	data, err := srv.cfg.Files.ReadFile(in.Path)
	if err != nil {
		return nil, nil, err
	}
	res, err := jsonmodel.Decode(data)
	if err != nil {
		return fail("parse", err.Error())
	}
	if !res.Valid() {
		return fail("validation", strings.Join(res.Errors, "; "))
	}
	opts, err := in.options()
	if err != nil {
		return nil, nil, err
	}
	sess, err := simulate.StartJSON(res.Model, in.Path, opts)
	if err == nil {
		if err := srv.feed(ctx, req, sess, in.Cycles); err != nil {
			return nil, nil, err
		}
	}
	return sessionReport(ctx, sess)
}

// sessionReport is the structured result of a finished session, unless
// the request was cancelled meanwhile: a long run's report takes a while
// to build, and a cancelled call answers with its cancellation, never
// with a report the client has given up on.
func sessionReport(ctx context.Context, sess *simulate.Session) (*mcp.CallToolResult, Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	// Encoding the report of a long run (100,000 cycles are tens of MB)
	// takes seconds under load and reads no context: the call answers its
	// cancellation at once (no deadline: the zero time), and the encoding
	// finishes unread.
	out, err := frontend.WithinBudget(ctx, time.Time{}, 0, "encoding the report", func() (Report, error) {
		return exactReport(sess.Report())
	})
	if err == nil && ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	return nil, out, err
}

// exactReport converts the report to the structured result keeping its
// numbers exact (integers of any size stay integers).
func exactReport(rep *simulate.Report) (Report, error) {
	data, err := rep.Marshal()
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out Report
	return out, dec.Decode(&out)
}
