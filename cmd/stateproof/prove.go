package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/formats"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/prove"
	"github.com/stateproof/stateproof/internal/z3"
)

type proveFlags struct {
	out       outputFlags
	rsc       string
	infer     bool
	maxK      int
	bmcDepth  int
	timeoutMS int
	layers    string
	rd        input.Reader
	stats     bool
	cert      string
	workers   int
}

func newProveCmd(stdout, stderr io.Writer) *cobra.Command {
	var f proveFlags
	cmd := &cobra.Command{
		Use:   "prove (MODEL.json | MODEL.fcstm | PROBLEM.smt2)",
		Short: "Prove reachable state constraints for every execution (induction, Houdini, Spacer)",
		Long: `prove proves per-state invariants (reachable state constraints, RSCs) for all
executions, or returns a real counterexample trace, or says why it could not
decide (docs/rsc.md).

Inputs: a JSON model (its never-states and var-in-range invariants become
RSCs), optionally with --rsc FILE of statements  rsc "STATE": EXPR;  an
FCSTM model with --rsc or --infer (the states are its stoppable leaves and
__init__/__terminate__; one step is one runtime cycle); or a linear CHC
problem in SMT-LIB2 (.smt2; predicates become nodes).

Layers, under one budget: the triple rule per strongly connected
component; Spacer (Z3's CHC engine), alone for a head start, then beside
the others on a multi-core machine; a bounded search that tells a real counterexample to induction
from a spurious one; k-induction; learning from sampled reachable states
(affine, parity, modular, bound and phase-split candidates kept by
Houdini); Houdini over mined candidates; interval propagation. Every proof
is re-checked by the triple rule on a fresh solver (--certificate writes
it for another solver); every violation is a trace from the start (for a
model found again by bmc and replayed on the model's runtime). Frame
semantics: an unassigned variable keeps its value.

A flag that would have no effect is refused (exit 2): --color (the text is
not coloured), --json with another --format, --stats with a --format other
than text (the JSON report always carries the statistics), --workers with a
single --layers entry.

Exit status: 0 all proved, 1 a confirmed violation, 2 usage or input error,
3 unknown.`,
		Example: `  stateproof prove examples/retry.json
  stateproof prove examples/retry.json --rsc examples/retry.rsc
  stateproof prove examples/retry.json --infer
  stateproof prove examples/fcstm/retry.fcstm --rsc examples/fcstm/retry.rsc
  stateproof prove bench/fib.smt2 --json
  stateproof prove bench/counter2.smt2 --stats --certificate counter2.cert.smt2`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.rd = inputReader(cmd)
			return runProve(cmd, &f, args[0], stdout, stderr)
		},
	}
	f.out.register(cmd)
	f.out.progress.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.rsc, "rsc", "", "prove the RSCs of `FILE` instead of the model's invariants")
	fl.BoolVar(&f.infer, "infer", false, "also print the strongest RSCs found per state (Houdini over mined candidates)")
	fl.IntVar(&f.maxK, "k", 4, "maximum k of k-induction (Wahl's numbering: 1 is ordinary induction)")
	fl.IntVar(&f.bmcDepth, "bmc-depth", 12, "depth of the bounded search that classifies counterexamples to induction")
	fl.IntVar(&f.timeoutMS, "timeout-ms", 10000, "total budget in milliseconds, counted from the program's start (Spacer gets what is left)")
	fl.BoolVar(&f.stats, "stats", false, "also print, per layer, the time spent and whether it contributed (always in --json)")
	fl.StringVar(&f.cert, "certificate", "", "when proved, write the RSCs to `FILE` as an SMT-LIB2 script another solver can re-check (unsat = valid)")
	fl.IntVar(&f.workers, "workers", 0, "layers run at once (1: in turn; 0: 2 on a multi-core machine)")
	fl.StringVar(&f.layers, "layers", strings.Join(prove.AllLayers, ","), "layers to run, comma-separated")
	return cmd
}

func proveUsage(stderr io.Writer, format string, args ...any) error {
	fmt.Fprintf(stderr, "stateproof prove: "+format+"\n", args...)
	return &exitError{2}
}

func runProve(cmd *cobra.Command, f *proveFlags, input string, stdout, stderr io.Writer) error {
	if err := f.out.resolve(cmd); err != nil {
		return proveUsage(stderr, "%v", err)
	}
	if msg := proveIgnored(cmd, f); msg != "" {
		return proveUsage(stderr, "%s", msg)
	}
	if f.maxK < 1 || f.bmcDepth < 1 || f.timeoutMS < 1 || f.workers < 0 {
		return proveUsage(stderr, "--k, --bmc-depth and --timeout-ms must be integers >= 1, --workers >= 0")
	}
	proc := processOf(cmd)
	opts := prove.Options{
		MaxK: f.maxK, BMCDepth: f.bmcDepth, TimeoutMS: f.timeoutMS, Infer: f.infer, Workers: f.workers,
		Start: proc.start, Abandon: proc.exiting, Context: cmd.Context(),
	}
	for _, l := range strings.Split(f.layers, ",") {
		l = strings.TrimSpace(l)
		if !slices.Contains(prove.AllLayers, l) {
			return proveUsage(stderr, "unknown layer %q (%s)", l, strings.Join(prove.AllLayers, ", "))
		}
		opts.Layers = append(opts.Layers, l)
	}
	// Only a CHC problem lives in a caller's context; a JSON model's
	// prover makes its own, inside the time budget (one costs tens of
	// milliseconds).
	var ctx *z3.Context
	if strings.HasSuffix(input, ".smt2") {
		var err error
		if ctx, err = z3.NewContext(); err != nil {
			return err
		}
		defer func() {
			if ctx != nil {
				release(cmd, ctx)
			}
		}()
	}
	deadline := proc.start.Add(time.Duration(f.timeoutMS) * time.Millisecond)
	type loaded struct {
		p     *prove.Problem
		model *frontend.Model
	}
	l, err := frontend.WithinBudget(context.Background(), deadline, f.timeoutMS, "loading "+input, func() (loaded, error) {
		p, model, err := loadProblem(ctx, f.rd, input, f.rsc)
		return loaded{p, model}, err
	})
	if pt := (*frontend.PhaseTimeout)(nil); errors.As(err, &pt) {
		if ctx != nil {
			ctx.Abandon() // the abandoned load may still be using it
			ctx = nil
		}
		if f.out.format != "json" && f.out.format != "sarif" {
			return undecidedPhase(stderr, "prove", pt)
		}
		res := prove.NotLoaded(input, proc.start, pt, f.infer)
		var buf bytes.Buffer
		if err := proveDocument(&buf, f, input, res); err != nil {
			return err
		}
		if err := writeOutput(f.out.out, stdout, buf.Bytes()); err != nil {
			return err
		}
		return &exitError{res.ExitCode()}
	}
	p, model := l.p, l.model
	if err != nil {
		return proveUsage(stderr, "%v", err)
	}
	if len(p.Props) == 0 && !f.infer {
		if f.rsc != "" {
			return proveUsage(stderr, "%s declares no rsc statement: nothing to prove (give --infer to infer RSCs)", f.rsc)
		}
		return proveUsage(stderr, "%s has no property to prove: give --rsc FILE or --infer", input)
	}
	var res *prove.Result
	err = f.out.progress.run(stderr, "proving "+input, func(rep progress.Reporter) (err error) {
		opts.Progress = rep
		res, err = prove.Prove(p, opts)
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "stateproof prove: %v\n", err)
		return &exitError{2}
	}
	if f.out.format == "html" {
		return emitProveHTML(f, input, model, stdout, res)
	}
	var buf bytes.Buffer
	if f.out.format == "json" || f.out.format == "sarif" {
		if err := proveDocument(&buf, f, input, res); err != nil {
			return err
		}
	} else if err := res.WriteText(&buf); err != nil {
		return err
	} else if f.stats {
		if err := res.WriteStats(&buf); err != nil {
			return err
		}
	}
	if f.cert != "" && res.Verdict == "proved" {
		text, err := p.Certificate(res)
		if err != nil {
			fmt.Fprintf(stderr, "stateproof prove: --certificate: %v\n", err)
			return &exitError{2}
		}
		if err := os.WriteFile(f.cert, []byte(text), 0o644); err != nil {
			fmt.Fprintf(stderr, "stateproof prove: --certificate: %v\n", err)
			return &exitError{2}
		}
	}
	if err := writeOutput(f.out.out, stdout, buf.Bytes()); err != nil {
		return err
	}
	if code := res.ExitCode(); code != 0 {
		return &exitError{code}
	}
	return nil
}

// proveDocument writes the JSON or SARIF document of res.
func proveDocument(buf *bytes.Buffer, f *proveFlags, input string, res *prove.Result) error {
	var doc any = res.JSON()
	if f.out.format == "sarif" {
		doc = proveSARIF(input, res)
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// loadProblem reads a CHC problem (.smt2) or a model of any format, with
// the RSCs of an .rsc file replacing the model's invariants when one is
// given.
func loadProblem(ctx *z3.Context, rd input.Reader, input, rscFile string) (p *prove.Problem, m *frontend.Model, err error) {
	if strings.HasSuffix(input, ".smt2") {
		data, err := rd.ReadFile(input)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot read %s: %w", input, err)
		}
		if p, err = prove.CHCProblem(ctx, input, string(data)); err != nil {
			return nil, nil, err
		}
	} else {
		if m, err = formats.Registry().Load(rd, input, ""); err != nil {
			return nil, nil, err
		}
		if p, err = prove.ModelProblem(m); err != nil {
			return nil, nil, err
		}
	}
	if rscFile == "" {
		return p, m, nil
	}
	src, err := rd.ReadFile(rscFile)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", rscFile, err)
	}
	if p.Props, err = prove.ParseRSC(rscFile, string(src), p.Graph); err != nil {
		return nil, nil, err
	}
	return p, m, nil
}

// proveIgnored is the refusal of a prove flag that would have no effect.
func proveIgnored(cmd *cobra.Command, f *proveFlags) string {
	if msg := noColor(cmd); msg != "" {
		return msg
	}
	if f.stats && f.out.format != "text" {
		if f.out.format == "json" {
			return "--stats has no effect with --format json: the JSON report always carries the layer statistics"
		}
		return "--stats has no effect with --format " + f.out.format + ": the statistics are printed after the text report only"
	}
	if cmd.Flags().Changed("workers") && len(strings.Split(f.layers, ",")) < 2 {
		return "--workers has no effect with --layers " + f.layers + ": one layer runs alone"
	}
	return ""
}
