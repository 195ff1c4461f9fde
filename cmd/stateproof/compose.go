package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/baseline"
	"github.com/stateproof/stateproof/internal/compose"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/report"
)

func newComposeCmd(stdout, stderr io.Writer) *cobra.Command {
	var out outputFlags
	opts := compose.DefaultOptions()
	var rendezvous []string
	var baselinePath string
	cmd := &cobra.Command{
		Use:   "compose MODEL1.json MODEL2.json [MODEL3.json ...]",
		Short: "Check two or more JSON models run together (C1 deadlock, C2 rendezvous)",
		Long: `compose runs the machines together and searches their product breadth-first:

  - a non-rendezvous event moves exactly one machine (equal names in
    different machines are unrelated);
  - a --rendezvous event fires only when at least two machines declare it and
    every non-terminal declaring machine has it enabled; they step together;
  - a terminal machine is stopped; machines share no variables.

C1 reports composite states where no machine can move while one is not
terminal, with the shortest path and, per machine, why each event is blocked.
C2 reports rendezvous events that never fire (an error). --max-states caps the
product; a capped search with no deadlock found is C1_UNDECIDED, never a pass.
The report follows the logicprobe/compose/v1 contract (--json).

--format sarif writes the findings as SARIF 2.1.0 for code scanning, each at
the first machine's file, a deadlock's path as a code flow.

Exit status (docs/reports.md#exit-codes): 0 for pass or pass_with_findings, 1
for fail (with --baseline: a delta verdict of fail), 2 for an invalid model, a
refused input or a usage error, 3 when no error finding exists but C1 was not
decided (--allow-undecided makes that 0), 4 for an internal error.
--legacy-exit-codes exits 2 instead of 1 for fail, as before.

A flag that would have no effect is refused (exit 2): --json with another
--format, --color with a --format other than text or with -o, --import-root
(a JSON model imports nothing), --allow-undecided with --baseline (the diff
exits 0 or 1).`,
		Example: `  stateproof compose examples/compose/producer.json examples/compose/consumer.json --rendezvous put
  stateproof compose examples/compose/handshake-*.json --rendezvous req,ack --json
  stateproof compose machines/*.json --rendezvous req,ack --max-states 1000000`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fail := func(code, msg string) error {
				return refuseAs(report.ComposeSchema, out, stdout, stderr, code, msg)
			}
			if err := out.resolve(cmd); err != nil {
				return fail("BAD_OPTION", err.Error())
			}
			if msg := baselineIgnored(cmd); msg != "" {
				return fail("BAD_OPTION", msg)
			}
			if (out.format == "html" || out.format == "sarif") && baselinePath != "" {
				return fail("BAD_OPTION", fmt.Sprintf("--format %s reports findings; it cannot be combined with --baseline", out.format))
			}
			if err := opts.Validate(); err != nil {
				return fail("BAD_OPTION", optionMessage(err))
			}
			if len(args) < 2 {
				return fail("BAD_OPTION", fmt.Sprintf("compose needs two or more machines (got %d); verify checks one", len(args)))
			}
			var err error
			if opts.Rendezvous, err = rendezvousList(rendezvous); err != nil {
				return fail("BAD_OPTION", err.Error())
			}
			var base *baseline.Report
			if baselinePath != "" {
				var ref *refusal
				if base, ref = loadBaseline(inputReader(cmd), baselinePath); ref != nil {
					return fail(ref.code, ref.msg)
				}
			}
			var in []compose.Input
			for _, path := range args {
				res, ref := readModel(inputReader(cmd), path, "")
				if ref != nil {
					return fail(ref.code, ref.msg)
				}
				in = append(in, compose.Input{Name: path, Result: res})
			}
			var rep *report.ComposeReport
			_ = out.progress.run(stderr, "composing", func(r progress.Reporter) error { // never fails
				opts.Progress = r
				rep = compose.Run(in, opts)
				return nil
			})
			if base != nil {
				return emitBaseline(out, stdout, stderr, report.ComposeSchema, baselinePath, base, rep.JSON())
			}
			if out.format == "html" {
				return emitComposeHTML(out, stdout, rep, in)
			}
			return emitCompose(out, stdout, rep, args)
		},
	}
	out.register(cmd)
	out.registerAllowUndecided(cmd)
	out.progress.register(cmd)
	f := cmd.Flags()
	f.StringSliceVar(&rendezvous, "rendezvous", nil, "comma-separated `EVENTS` that synchronise the machines declaring them")
	f.IntVar(&opts.MaxStates, "max-states", opts.MaxStates, "cap of the product search, in composite states")
	f.IntVar(&opts.MaxFindings, "max-findings", opts.MaxFindings, "list at most `N` findings per check, counting the rest (0 lists all)")
	f.StringVar(&opts.HashSpec, "hash-spec", opts.HashSpec, "hash spec of the machine hashes: v1, or v0")
	f.StringVar(&baselinePath, "baseline", "", "print what changed since the earlier compose report in `FILE` instead of the report")
	return cmd
}

// rendezvousList trims the --rendezvous entries and drops repeats; an
// empty entry is an error.
func rendezvousList(in []string) ([]string, error) {
	var out []string
	for _, e := range in {
		e = strings.TrimSpace(e)
		if e == "" {
			return nil, fmt.Errorf("--rendezvous: empty event name in %q", strings.Join(in, ","))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

func emitCompose(out outputFlags, stdout io.Writer, rep *report.ComposeReport, machines []string) error {
	verdict, _ := rep.Verdict()
	code := verdictCode(out, true, verdict, rep.Checks)
	var buf bytes.Buffer
	if out.format == "json" || out.format == "sarif" {
		doc := append(rep.JSON(), report.KV{Key: "exit_code", Value: code})
		if out.format == "sarif" {
			// A composition finding is about the machines together: it is
			// placed at the top of the first machine's file.
			at := report.Location{URI: machines[0], Line: 1, Col: 1}
			doc = report.SARIF(sarifTool("compose", machines...), rep.Checks, nil, func(*report.Finding) report.Location { return at })
		}
		data, err := report.Indent(doc)
		if err != nil {
			return err
		}
		buf.Write(data)
	} else if err := report.WriteComposeText(&buf, rep, report.Style{Color: textColor(out, stdout)}); err != nil {
		return err
	}
	if err := writeOutput(out.out, stdout, buf.Bytes()); err != nil {
		return err
	}
	return exitWith(code)
}
