package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/diagram"
	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
)

type drawFlags struct {
	out     string
	format  string
	finding string
	index   int
	query   verifyQueryFlags // FCSTM: the query whose finding --finding may name
}

func newDrawCmd(stdout, stderr io.Writer) *cobra.Command {
	var f drawFlags
	cmd := &cobra.Command{
		Use:   "draw (MODEL.json | MODEL.fcstm) [-o FILE] [--format svg|mermaid|dot] [--finding CODE [--index N]]",
		Short: "Draw the machine (Mermaid, Graphviz DOT or SVG), optionally with a finding on it",
		Long: `draw renders a state machine: for a JSON model its states (terminal states
with an edge to the final marker), the initial marker, and every transition
labelled "event [guard] / updates"; for an FCSTM model every composite state
as a cluster around its children with its own initial and exit markers,
pseudo states dashed, forced transitions dashed and marked "!", and the
actions of each state listed on it.

Formats: mermaid (stateDiagram-v2, for Markdown: GitHub renders it), dot
(Graphviz source) and svg (laid out by stateproof itself, columns from left
to right; nothing to install). Without --format the format follows the extension of -o (.svg,
.dot or .gv, .mmd or .md), and is mermaid on stdout when there is no -o.

--finding CODE runs verify (for FCSTM: its lints) and draws the first finding with that code (the
N-th with --index N, counted from 1) on the machine: the steps of its path
numbered in order, the state where it ends marked, the states of a closed
cycle or a dead end highlighted, and the variable values at every step in a
table beside the picture (svg, dot) or as comment lines (mermaid). For an
FCSTM model, -q FILE or --check QUERY (with --all-depths) decides the query
as verify does, so that --finding FBMCQ_PROPERTY_VIOLATED draws its
counterexample (an ltl lasso with its cycle, docs/liveness.md).

Exit status: 0 drawn, 2 usage or input error (an invalid model, no such
finding).`,
		Example: `  stateproof draw examples/order.json                  # Mermaid on stdout
  stateproof draw examples/order.json -o order.svg
  stateproof draw examples/order.json --format dot
  stateproof draw examples/broken/s7-peterson-no-flag.json --finding S7_INVARIANT_VIOLATION -o cex.svg
  stateproof draw examples/broken/s3-closed-cycle.json --finding S3_CLOSED_SCC`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDraw(&f, cmd, args[0], stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.out, "output", "o", "", "write the drawing to `FILE` (atomically) instead of stdout")
	fl.StringVar(&f.format, "format", "", "svg, mermaid or dot (default: from the -o extension, else mermaid)")
	fl.StringVar(&f.finding, "finding", "", "draw the first verify finding with this `CODE` on the machine")
	fl.IntVar(&f.index, "index", 1, "with --finding: draw the `N`-th finding with the code (from 1)")
	f.query.register(fl)
	return cmd
}

func drawUsage(stderr io.Writer, format string, args ...any) error {
	fmt.Fprintf(stderr, "stateproof draw: "+format+"\n", args...)
	return &exitError{2}
}

// drawFormat resolves the output format from --format and the -o name.
func drawFormat(format, out string) (string, error) {
	if format == "" {
		switch strings.ToLower(filepath.Ext(out)) {
		case ".svg":
			return "svg", nil
		case ".dot", ".gv":
			return "dot", nil
		}
		return "mermaid", nil
	}
	if format != "svg" && format != "mermaid" && format != "dot" {
		return "", fmt.Errorf("--format must be svg, mermaid or dot (got %q)", format)
	}
	return format, nil
}

func runDraw(f *drawFlags, cmd *cobra.Command, path string, stdout, stderr io.Writer) error {
	format, err := drawFormat(f.format, f.out)
	if err != nil {
		return drawUsage(stderr, "%v", err)
	}
	if cmd.Flags().Changed("index") && f.finding == "" {
		return drawUsage(stderr, "--index needs --finding")
	}
	if f.index < 1 {
		return drawUsage(stderr, "--index must be an integer >= 1")
	}
	if q := setFlag(cmd, "query", "check"); q != "" && (f.finding == "" || !isFCSTM(path)) {
		return drawUsage(stderr, "%s needs --finding and an FCSTM model: it adds the query's finding to those --finding picks from", q)
	}
	if msg := f.query.refusal(cmd, isFCSTM(path)); msg != "" {
		return drawUsage(stderr, "%s", msg)
	}
	g, ov, err := drawModel(inputReader(cmd), path, f)
	if err != nil {
		return drawUsage(stderr, "%v", err)
	}
	var data []byte
	switch format {
	case "mermaid":
		data = []byte(diagram.Mermaid(g, ov))
	case "dot":
		data = []byte(diagram.DOT(g, ov, ""))
	default:
		if data, err = diagram.SVG(context.Background(), g, ov, ""); err != nil {
			return drawUsage(stderr, "%v", err)
		}
	}
	return writeOutput(f.out, stdout, data)
}

// drawModel builds the graph of a JSON or FCSTM model, with the finding
// --finding names drawn on it.
func drawModel(rd input.Reader, path string, f *drawFlags) (*diagram.Graph, *diagram.Overlay, error) {
	var g *diagram.Graph
	var m *jsonmodel.Model
	var rep *report.VerifyReport
	if isFCSTM(path) {
		res, err := lint.Check(path, model.ReaderOptions(rd))
		if err != nil {
			return nil, nil, err
		}
		if res.Model == nil {
			return nil, nil, fmt.Errorf("%s does not load:\n  %s", path, strings.Join(findingMessages(res.Report), "\n  "))
		}
		g, rep = diagram.FromFCSTM(res.Model, filepath.Base(path)), res.Report
		if f.query.given() {
			answers, _, msg, err := f.query.answer(rd, res.Model, verify.DefaultOptions().MaxStates)
			switch {
			case err != nil:
				return nil, nil, err
			case msg != "":
				return nil, nil, errors.New(msg)
			}
			rep.Queries, rep.Checks = answers, append(rep.Checks, decide.Check(answers))
		}
	} else {
		res, ref := readModel(rd, path, "")
		if ref != nil {
			return nil, nil, errors.New(ref.msg)
		}
		if !res.Valid() {
			return nil, nil, fmt.Errorf("%s is not a valid model:\n  %s", path, strings.Join(res.Errors, "\n  "))
		}
		g, m = diagram.FromJSON(res.Model, filepath.Base(path)), res.Model
		if f.finding != "" {
			rep = verify.Run(res, verify.DefaultOptions())
		}
	}
	if f.finding == "" {
		return g, nil, nil
	}
	fd, err := pickFinding(rep, f.finding, f.index)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	ov := diagram.FindingOverlay(g, m, fd)
	if ov == nil {
		return nil, nil, fmt.Errorf("%s: finding %s names no state or path of the machine: nothing to draw on it", path, f.finding)
	}
	return g, ov, nil
}

// findingMessages lists the messages of every finding of rep.
func findingMessages(rep *report.VerifyReport) []string {
	var out []string
	for _, fs := range findingLists(rep) {
		for _, f := range fs {
			out = append(out, f.Message)
		}
	}
	return out
}

// pickFinding returns the index-th finding (from 1) of rep with the code.
func pickFinding(rep *report.VerifyReport, code string, index int) (*report.Finding, error) {
	var codes []string
	n := 0
	for _, fs := range findingLists(rep) {
		for i := range fs {
			if fs[i].Code == code {
				if n++; n == index {
					return &fs[i], nil
				}
			}
			if !slices.Contains(codes, fs[i].Code) {
				codes = append(codes, fs[i].Code)
			}
		}
	}
	if n > 0 {
		return nil, fmt.Errorf("verify reports %d finding(s) %s; --index %d is past the last", n, code, index)
	}
	slices.Sort(codes)
	if len(codes) == 0 {
		return nil, fmt.Errorf("verify reports no finding at all, so no %s", code)
	}
	return nil, fmt.Errorf("verify reports no %s finding (it reports %s)", code, strings.Join(codes, ", "))
}

// findingLists returns the findings of every check, then those outside any
// check, in report order.
func findingLists(rep *report.VerifyReport) [][]report.Finding {
	out := make([][]report.Finding, 0, len(rep.Checks)+1)
	for i := range rep.Checks {
		out = append(out, rep.Checks[i].Findings)
	}
	return append(out, rep.Findings)
}
