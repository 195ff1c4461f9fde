package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/diagram"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/simulate"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
)

// defaultSimCycles is how many cycles "simulate" runs without events
// given: enough to watch the initial transitions settle.
const defaultSimCycles = 5

func (s *server) formatting(_ context.Context, p documentParams) (any, error) {
	d := s.ws.get(p.TextDocument.URI)
	if d == nil {
		return nil, errorf(codeInvalidParams, "%s is not open", p.TextDocument.URI)
	}
	if s.opts.Format == nil {
		return nil, errorf(codeMethodNotFound, "formatting is not available in this build")
	}
	if err := s.ws.checkSize(d); err != nil {
		return nil, err
	}
	out, err := s.opts.Format(d.path, []byte(d.text.src))
	if err != nil {
		return nil, errorf(codeRequestFailed, "cannot format: %v", err)
	}
	if string(out) == d.text.src {
		return []TextEdit{}, nil
	}
	return []TextEdit{{Range: d.text.rangeOf(0, len(d.text.src)), NewText: string(out)}}, nil
}

// codeLens offers "simulate", "draw" and "generate…" on a model's first
// line (generate's target is the client's to ask: docs/lsp.md#generate) and
// "check this query" on a query's check clause.
func (s *server) codeLens(_ context.Context, p documentParams) (any, error) {
	d := s.ws.get(p.TextDocument.URI)
	if d == nil {
		return []CodeLens{}, nil
	}
	args := []any{d.uri}
	switch d.lang {
	case langFCSTM, langJSON:
		r := Range{}
		if ix := s.ws.indexOf(d); d.lang == langFCSTM && ix != nil {
			n := ix.file.Root.Name
			r = d.text.rangeOf(n.Pos.Offset, n.Pos.Offset+len(n.Name))
		}
		return []CodeLens{
			{Range: r, Command: &Command{Title: "simulate", Command: cmdSimulate, Arguments: args}},
			{Range: r, Command: &Command{Title: "draw", Command: cmdDraw, Arguments: args}},
			{Range: r, Command: &Command{Title: "generate…", Command: cmdGenerate, Arguments: args}},
		}, nil
	case langFBMCQ:
		q, err := query.Parse(d.path, d.text.src)
		if err != nil || !q.Check.Span.Start.IsValid() {
			return []CodeLens{}, nil
		}
		i := q.Check.Span.Start.Offset
		r := d.text.rangeOf(i, i+len("check"))
		return []CodeLens{{Range: r, Command: &Command{Title: "check this query", Command: cmdCheck, Arguments: args}}}, nil
	}
	return []CodeLens{}, nil
}

// executeCommand runs a lens's command on the document named by its
// first argument and answers with markdown (simulate, check), the SVG
// (draw) or the files written (generate).
func (s *server) executeCommand(ctx context.Context, p executeCommandParams) (any, error) {
	if len(p.Arguments) == 0 {
		return nil, errorf(codeInvalidParams, "%s takes the document URI as its first argument", p.Command)
	}
	var uri string
	if err := json.Unmarshal(p.Arguments[0], &uri); err != nil {
		return nil, errorf(codeInvalidParams, "%s: the first argument must be a document URI", p.Command)
	}
	d := s.ws.get(uri)
	if d == nil {
		return nil, errorf(codeInvalidParams, "%s is not open", uri)
	}
	if err := s.ws.checkSize(d); err != nil {
		return nil, err
	}
	switch p.Command {
	case cmdSimulate:
		var events string
		if len(p.Arguments) > 1 {
			_ = json.Unmarshal(p.Arguments[1], &events)
		}
		return s.ws.simulate(d, events)
	case cmdDraw:
		return s.ws.draw(ctx, d)
	case cmdCheck:
		return s.ws.checkQuery(ctx, d, s.opts.timeout())
	case cmdGenerate:
		return s.generateCode(ctx, d, p.Arguments)
	}
	return nil, errorf(codeInvalidParams, "unknown command %q", p.Command)
}

func markdown(title, body string) map[string]any {
	return map[string]any{"kind": "markdown", "value": "**" + title + "**\n\n```\n" + body + "```\n"}
}

// simulate runs a model for the given cycles (simulate's --events
// syntax: cycles separated by ";", events by ","; a JSON model takes one
// event per cycle), or for a few cycles without events.
func (w *workspace) simulate(d *document, events string) (any, error) {
	cycles := make([][]string, defaultSimCycles)
	if strings.TrimSpace(events) != "" {
		var err error
		if cycles, err = simulate.ParseEvents(events); err != nil {
			return nil, errorf(codeInvalidParams, "events: %v", err)
		}
	}
	name := filepath.Base(d.path)
	var sess *simulate.Session
	var err error
	switch d.lang {
	case langFCSTM:
		m, lerr := model.Parse(d.path, d.text.src, w.modelOptions())
		if lerr != nil {
			return nil, errorf(codeRequestFailed, "the model does not load: %v", lerr)
		}
		sess, err = simulate.Start(m, name, simulate.Options{})
	case langJSON:
		res, derr := jsonmodel.Decode([]byte(d.text.src))
		if derr != nil || !res.Valid() {
			return nil, errorf(codeRequestFailed, "the model is not valid; see its diagnostics")
		}
		sess, err = simulate.StartJSON(res.Model, name, simulate.Options{})
	default:
		return nil, errorf(codeRequestFailed, "simulate takes a model (.fcstm or .json)")
	}
	var buf bytes.Buffer
	if err == nil {
		err = sess.Feed(&simulate.SliceSource{Cycles: cycles}, simulate.DefaultMaxCycles, nil)
	}
	if sess != nil {
		simulate.NewTextWriter(&buf).Report(sess.Report())
	}
	if err != nil {
		fmt.Fprintf(&buf, "error: %v\n", err)
	}
	return markdown("simulate "+name, buf.String()), nil
}

func (w *workspace) draw(ctx context.Context, d *document) (any, error) {
	var g *diagram.Graph
	title := filepath.Base(d.path)
	switch d.lang {
	case langFCSTM:
		m, err := model.Parse(d.path, d.text.src, w.modelOptions())
		if err != nil {
			return nil, errorf(codeRequestFailed, "the model does not load: %v", err)
		}
		g = diagram.FromFCSTM(m, title)
	case langJSON:
		res, err := jsonmodel.Decode([]byte(d.text.src))
		if err != nil || !res.Valid() {
			return nil, errorf(codeRequestFailed, "the model is not valid; see its diagnostics")
		}
		g = diagram.FromJSON(res.Model, title)
	default:
		return nil, errorf(codeRequestFailed, "draw takes a model (.fcstm or .json)")
	}
	svg, err := diagram.SVG(ctx, g, nil, "")
	if err != nil {
		return nil, errorf(codeRequestFailed, "draw: %v", err)
	}
	return map[string]any{"mimeType": "image/svg+xml", "svg": string(svg), "mermaid": diagram.Mermaid(g, nil)}, nil
}

// checkQuery runs bmc on a query file against its model, within the
// request's budget; an undecided solve is reported as such.
func (w *workspace) checkQuery(ctx context.Context, d *document, budget time.Duration) (any, error) {
	if d.lang != langFBMCQ {
		return nil, errorf(codeRequestFailed, "check this query takes an .fbmcq file")
	}
	q, err := query.Parse(d.path, d.text.src)
	if err != nil {
		return nil, errorf(codeRequestFailed, "%v", err)
	}
	path, _, ok := w.queryModel(d)
	if !ok {
		return nil, errorf(codeRequestFailed, "the query names no model: add a `// model: PATH` line (docs/lsp.md#query-files)")
	}
	// Loading is inside the budget: a model that loads for longer is a
	// timeout report, as in the CLI.
	job := &frontend.Job{ModelPath: path, QueryPath: d.path, Query: q, MaxBound: frontend.DefaultMaxBound,
		Load: func() (*frontend.Model, error) {
			m, err := w.loadModel(path)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", path, err)
			}
			return m, nil
		},
		Options: bmc.Options{TimeoutMS: int(budget.Milliseconds() * 9 / 10), Start: time.Now(), Context: ctx}}
	run, err := job.Run()
	if err != nil {
		return nil, errorf(codeRequestFailed, "%v", err)
	}
	rep := run.Reports[0]
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		return nil, err
	}
	return markdown(fmt.Sprintf("bmc %s (exit %d)", filepath.Base(d.path), rep.ExitCode()), buf.String()), nil
}
