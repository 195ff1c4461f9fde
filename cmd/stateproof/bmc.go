package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/explain"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/formats"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/z3"
)

type bmcFlags struct {
	out          outputFlags
	model        string
	queryFile    string
	check        string
	bound        int
	timeoutMS    int
	maxBound     int
	shortest     bool
	noIncomplete bool
	explain      string
	formatIn     string
	skipped      []string // --bound: invariants not checked, and why
	loaded       *frontend.Model
	start        time.Time // when the budget began: the program's start
	stderr       io.Writer
}

func newBMCCmd(stdout, stderr io.Writer) *cobra.Command {
	var f bmcFlags
	cmd := &cobra.Command{
		Use:   "bmc MODEL (-q QUERY.fbmcq | --check 'TEXT' | --bound N)",
		Short: "Bounded model checking with Z3: witnesses decoded and replayed on the runtime",
		Long: `bmc asks whether something can (or must) happen within N steps, with Z3.

A query (FBMCQ, see docs/queries.md) names one check — reach, forbid,
invariant, must_reach, exists_always, cover or response — with optional init
and assume clauses. A satisfying model is decoded into a trace and replayed on
the model's own runtime; the report says whether the runtime agrees.

MODEL is a JSON model (.json) or an FCSTM model (.fcstm, with its imports);
the extension picks the format, --format-in names it for other file names.

--bound N without a query checks every state-predicate invariant of the model
(never-states as forbid, var-in-range as invariant) to depth N; an FCSTM model
declares none, so --bound is refused for it.

--timeout-ms (default 30000) is one budget per query for loading, encoding and
solving (the first query's includes loading and any encoding the queries
share; with several queries or --bound each later one begins its own): at it
the answer is timeout, never a verdict (docs/queries.md, Budgets).

A flag that would have no effect is refused (exit 2): --color (the text is
not coloured), --json with another --format, --no-incomplete-check with
--bound (it concerns response queries only).

Exit status: 0 property holds / witness found, 1 negative verdict, 2 usage or
input error, 3 inconclusive (unknown, timeout, infeasible scenario, incomplete
response horizon), 4 replay mismatch (result untrusted).`,
		Example: `  stateproof bmc examples/order.json -q examples/queries/order-paid.fbmcq
  stateproof bmc examples/order.json --check 'check reach <= 6: active("SHIPPED") && retry == 2;' --json
  stateproof bmc examples/retry.json --bound 20
  stateproof bmc -i examples/order.json -q QUERY.fbmcq --shortest   # QUERY.fbmcq: your query
  stateproof bmc examples/order.json -q examples/queries/order-impossible.fbmcq --explain proof
  stateproof bmc examples/fcstm/door.fcstm -q examples/fcstm/door-opens.fbmcq`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if f.model != "" {
					return usageError(stderr, "give the model once: as an argument or with -i")
				}
				f.model = args[0]
			}
			return runBMC(&f, cmd, stdout, stderr)
		},
	}
	f.out.register(cmd)
	f.out.progress.register(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&f.model, "input", "i", "", "the model `FILE` (pyfcstm-style alternative to the argument)")
	fl.StringVarP(&f.queryFile, "query", "q", "", "the FBMCQ query `FILE`")
	fl.StringVar(&f.check, "check", "", "the query `TEXT` inline (a check clause, optionally after init/assume clauses)")
	fl.IntVar(&f.bound, "bound", 0, "without a query: check every state-predicate invariant of the model to depth `N`")
	fl.IntVar(&f.timeoutMS, "timeout-ms", bmc.DefaultTimeoutMS, "one total budget in milliseconds for encoding and solving; at it the answer is timeout (exit 3)")
	fl.IntVar(&f.maxBound, "max-bound", frontend.DefaultMaxBound, "refuse queries (and --bound) whose bound exceeds `N`: the encoding grows with the bound")
	fl.BoolVar(&f.shortest, "shortest", false, "solve bound by bound and report the first (shortest) model")
	fl.BoolVar(&f.noIncomplete, "no-incomplete-check", false, "skip the response tail check (the result then says it was not checked)")
	fl.StringVar(&f.explain, "explain", "none", "explain an infeasible scenario: none, formal or proof")
	fl.StringVar(&f.explain, "explain-infeasibility", "none", "alias of --explain")
	fl.StringVar(&f.formatIn, "format-in", "", "the model format `NAME` (json or fcstm) when the file's extension does not say it")
	return cmd
}

// usageError reports a command-line mistake: exit 2, message on stderr.
func usageError(stderr io.Writer, format string, args ...any) error {
	fmt.Fprintf(stderr, "stateproof bmc: "+format+"\n", args...)
	return &exitError{2}
}

func runBMC(f *bmcFlags, cmd *cobra.Command, stdout, stderr io.Writer) error {
	f.stderr = stderr
	if err := f.out.resolve(cmd); err != nil {
		return usageError(stderr, "%v", err)
	}
	if msg := noColor(cmd); msg != "" {
		return usageError(stderr, "%s", msg)
	}
	given := 0
	for _, s := range []bool{f.queryFile != "", f.check != "", cmd.Flags().Changed("bound")} {
		if s {
			given++
		}
	}
	switch {
	case f.model == "":
		return usageError(stderr, "no model given (stateproof bmc MODEL -q QUERY.fbmcq)")
	case given != 1:
		return usageError(stderr, "give exactly one of -q FILE, --check TEXT or --bound N")
	case cmd.Flags().Changed("bound") && f.bound < 1:
		return usageError(stderr, "--bound must be an integer >= 1")
	case f.noIncomplete && f.bound > 0:
		return usageError(stderr, "--no-incomplete-check has no effect with --bound: it skips the tail check of a response query, and --bound checks invariants")
	case report.CheckRange("timeoutMs", f.timeoutMS, 1, -1) != nil:
		return usageError(stderr, "%s", optionMessage(report.CheckRange("timeoutMs", f.timeoutMS, 1, -1)))
	case f.maxBound < 1:
		return usageError(stderr, "--max-bound must be an integer >= 1")
	case f.bound > f.maxBound:
		return usageError(stderr, "--bound %d exceeds --max-bound %d: a bound that large unrolls the model %d times; raise --max-bound to allow it", f.bound, f.maxBound, f.bound)
	case bmc.CheckExplain(f.explain) != nil:
		return usageError(stderr, "--%v", bmc.CheckExplain(f.explain))
	}
	rd := inputReader(cmd)
	f.start = processOf(cmd).start
	job := &frontend.Job{ModelPath: f.model, QueryPath: f.queryFile, Bound: f.bound, MaxBound: f.maxBound,
		Load:    func() (*frontend.Model, error) { return formats.Registry().Load(rd, f.model, f.formatIn) },
		Release: func(ctx *z3.Context) { release(cmd, ctx) },
		Options: bmc.Options{TimeoutMS: f.timeoutMS, Start: f.start, Shortest: f.shortest, NoIncompleteCheck: f.noIncomplete,
			Explain: f.explain, Explainer: explain.Explain},
	}
	if f.bound == 0 {
		var err error
		if job.Query, err = f.parseQuery(rd); err != nil {
			fmt.Fprintf(stderr, "stateproof bmc: %v\n", err)
			return &exitError{2}
		}
	}
	var run *frontend.Run
	err := f.out.progress.run(f.stderr, "solving "+f.model, func(rep progress.Reporter) (err error) {
		job.Options.Progress = rep
		run, err = job.Run()
		return err
	})
	if err != nil {
		fmt.Fprintf(stderr, "stateproof bmc: %v\n", err)
		return &exitError{2}
	}
	f.loaded, f.skipped = run.Model, run.Skipped
	if run.Model == nil && f.out.format == "html" {
		// The page draws the model, which was not loaded.
		fmt.Fprintf(stderr, "stateproof bmc: UNKNOWN: %s\n", strings.Join(run.Skipped, "; "))
		return &exitError{3}
	}
	return emitBMC(f, stdout, run.Reports)
}

// parseQuery reads and parses the query (-q FILE or --check TEXT); it is
// bound once the model is loaded.
func (f *bmcFlags) parseQuery(rd input.Reader) (*query.Query, error) {
	file, text := "<check>", f.check
	if f.queryFile != "" {
		data, err := rd.ReadFile(f.queryFile)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", f.queryFile, err)
		}
		file, text = f.queryFile, string(data)
	}
	return query.Parse(file, text)
}

func emitBMC(f *bmcFlags, stdout io.Writer, reports []*bmc.Report) error {
	if f.out.format == "html" {
		return emitBMCHTML(f, stdout, reports)
	}
	var buf bytes.Buffer
	if f.out.format == "json" || f.out.format == "sarif" {
		var doc any
		switch {
		case f.out.format == "sarif":
			doc = bmcSARIF(f.model, f.queryFile, reports, f.skipped)
		case f.bound > 0:
			doc = frontend.BoundJSON(f.bound, reports, f.skipped)
		default:
			doc = reports[0].JSON()
		}
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return err
		}
	} else {
		for i, r := range reports {
			if i > 0 {
				buf.WriteString("\n")
			}
			if err := r.WriteText(&buf); err != nil {
				return err
			}
		}
		for _, s := range f.skipped {
			fmt.Fprintf(&buf, "\nnote: %s\n", s)
		}
	}
	if err := writeOutput(f.out.out, stdout, buf.Bytes()); err != nil {
		return err
	}
	if code := frontend.AggregateExit(reports); code != 0 {
		return &exitError{code}
	}
	return nil
}
