package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/htmlreport"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
)

type outputFlags struct {
	format string
	json   bool
	out    string
	color  string
	// allowUndecided (verify and compose) exits 0 rather than 3 when no
	// error finding exists but a check was not decided.
	allowUndecided bool
	// legacyExit (verify and compose) exits 2, as before the exit-code
	// contract, rather than 1 for a failing model.
	legacyExit bool
	// progress (verify, compose, bmc, prove) shows the run's progress on
	// stderr.
	progress progressFlags
	// halt (verify) withholds the report of a run stopped by a signal.
	halt *halt
}

func (o *outputFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&o.format, "format", "text", "output format: text, json, sarif or html (one self-contained page)")
	c.Flags().BoolVar(&o.json, "json", false, "shorthand for --format json")
	c.Flags().StringVarP(&o.out, "output", "o", "", "write the report to `FILE` (atomically) instead of stdout")
	c.Flags().StringVar(&o.color, "color", "auto", "colour text output: auto, always or never (auto honours NO_COLOR)")
}

func (o *outputFlags) registerAllowUndecided(c *cobra.Command) {
	c.Flags().BoolVar(&o.allowUndecided, "allow-undecided", false, "exit 0 instead of 3 when no error finding exists but some check was not decided (a search stopped at its cap)")
	c.Flags().BoolVar(&o.legacyExit, "legacy-exit-codes", false, "exit 2 rather than 1 for a failing model, as before the exit-code contract (docs/reports.md#exit-codes)")
}

// failExit is the exit status of a failing verify, compose or baseline
// verdict.
func (o outputFlags) failExit() int {
	if o.legacyExit {
		return legacyFailExit
	}
	return exitViolated
}

// verdictCode is the exit status of a verify or compose report: 2 for an
// invalid model, 1 when it fails (an error finding), 3 when nothing failed
// but some check was not decided (unless --allow-undecided), 0 otherwise.
func verdictCode(out outputFlags, valid bool, verdict string, checks []report.Check) int {
	switch {
	case !valid:
		return exitInput
	case verdict == report.Fail:
		return out.failExit()
	case report.UndecidedChecks(checks) > 0 && !out.allowUndecided:
		return exitUndecided
	}
	return exitHolds
}

// exitWith turns an exit status into the error cobra carries.
func exitWith(code int) error {
	if code == exitHolds {
		return nil
	}
	return &exitError{code}
}

// resolve applies --json and checks the values; --json with another
// --format, and --color where nothing is coloured, are refused.
func (o *outputFlags) resolve(cmd *cobra.Command) error {
	if o.json {
		if cmd.Flags().Changed("format") && o.format != "json" {
			return fmt.Errorf("--json is --format json: it cannot be combined with --format %s", o.format)
		}
		o.format = "json"
	}
	if o.format != "text" && o.format != "json" && o.format != "sarif" && o.format != "html" {
		return fmt.Errorf("--format must be text, json, sarif or html (got %q)", o.format)
	}
	if o.color != "auto" && o.color != "always" && o.color != "never" {
		return fmt.Errorf("--color must be auto, always or never (got %q)", o.color)
	}
	if msg := o.colorIgnored(cmd); msg != "" {
		return errors.New(msg)
	}
	return nil
}

func newVerifyCmd(stdout, stderr io.Writer) *cobra.Command {
	var out outputFlags
	opts := verify.DefaultOptions()
	var hashCheck string
	var cmpf compareFlags
	var sc scaleFlags
	var spf spillFlags
	var qf verifyQueryFlags
	cmd := &cobra.Command{
		Use:   "verify MODEL.json | MODEL.fcstm",
		Short: "Run the explicit-state checks on a JSON model (schema v1), or lint an FCSTM model",
		Long: `verify validates a JSON state-machine model (schema v1) and runs the structural
checks S1-S8 and the adversarial probes A1-A15 over its reachable runtime
states (A15, LTL, when the model declares an ltl invariant). The report follows the logicprobe/verify/v1 contract (--json).

With --before-model the model is AFTER and is compared with BEFORE: D1
behavioural preservation, D2 invariant continuity (every BEFORE invariant
re-decided in AFTER), D3 regression delta and D4 deadlock/liveness regression.
--state-mapping maps renamed BEFORE state ids to AFTER ids (a JSON object whose
keys must be BEFORE states).

With --baseline the output is what changed since an earlier report: findings
added, removed or changed (logicprobe/baseline/v1); a new error fails.

An FCSTM model (a .fcstm file) is parsed, constructed and linted instead
(see docs/fcstm.md): load errors are reported located on the file's lines,
followed by structural lints (unreachable states, parent-level transitions
that never fire, combo and action lints).

With -q FILE.fbmcq or --check 'QUERY' (FCSTM models), verify decides an FBMCQ
query (any of the seven kinds) by explicit search, with bmc's frames,
assumptions and outcome names (the report's queries section, check FCSTM-Q1,
in place of the whole-space search FCSTM-S1); --all-depths decides a reach,
cover, forbid or invariant query for every depth, undecided unless the
reachable space is finite within --max-states (docs/fcstm.md, "Queries decided
by search").

--partition I/N runs worker I of a partitioned search over gRPC, of a JSON or
an FCSTM model (same report, worker 0 writes it; --local-partitions N starts the
workers on this host); the checks that need the whole graph are undecided
"graph partitioned" unless --gather has worker 0 hold the graph;
--swarm I/N runs a bug-hunting swarm member, of a JSON or an FCSTM model,
whose reports stateproof merge combines; see docs/scale.md.

A flag that would have no effect is refused (exit 2), never ignored:
the peer flags (--peers, --peers-file, --peers-dns,
--token-file, --tls-*) without --partition or with --local-partitions;
--peer-timeout, --start-timeout and --gather without either; --progress with either;
--seed without --swarm; --workers, --max-findings, --max-permutation-events,
the spill flags, --allow-undecided, --legacy-exit-codes, --progress and --color
with --swarm; the check options with --hash-check; the JSON-only options
(--before-model, --baseline, --max-findings, --progress, ...) with an FCSTM
model; --import-root with a JSON model; -q/--check with a JSON
model, with each other, with --workers or the spill flags, or with --partition,
--local-partitions, --swarm, --hash-check, --before-model, --baseline or
--prove; --all-depths without a query; --json with another --format; --color
with a --format other than text, or with -o; --allow-undecided with
--baseline (the diff exits 0 or 1).

Exit status (docs/reports.md#exit-codes): 0 for pass or pass_with_findings, 1
for fail (an error finding; with --baseline, a delta verdict of fail), 2 for an
invalid model, a refused input or a usage error, 3 when no error finding exists
but some check was not decided (a search stopped at --max-states:
*_UNDECIDED; --allow-undecided makes that 0), 4 for an internal error.
--legacy-exit-codes exits 2 instead of 1 for fail, as before. The JSON report
carries its exit_code.`,
		Example: `  stateproof verify examples/order.json
  stateproof verify examples/order.json --json -o report.json
  stateproof verify examples/compare/rename-after.json --before-model examples/compare/rename-before.json --state-mapping examples/compare/rename-mapping.json
  stateproof verify examples/order.json --baseline report.json
  stateproof verify examples/order.json --hash-check HEX
  stateproof verify examples/fcstm/door.fcstm --format sarif
  stateproof verify examples/fcstm/door.fcstm --check 'check reach <= 4: active("Door.Open");'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := out.resolve(cmd); err != nil {
				return refuse(out, stdout, stderr, "BAD_OPTION", err.Error())
			}
			if msg := verifyIgnored(cmd, &sc, out); msg != "" {
				return refuse(out, stdout, stderr, "BAD_OPTION", msg)
			}
			if msg := qf.refusal(cmd, isFCSTM(args[0])); msg != "" {
				return refuse(out, stdout, stderr, "BAD_OPTION", msg)
			}
			if (out.format == "sarif" || out.format == "html") && (cmd.Flags().Changed("hash-check") || cmpf.baseline != "") {
				return refuse(out, stdout, stderr, "BAD_OPTION", "--format "+out.format+" reports findings; it cannot be combined with --hash-check or --baseline")
			}
			if isFCSTM(args[0]) {
				if sc.active() {
					return sc.runFCSTM(cmd, out, stdout, stderr, args[0], opts, &spf)
				}
				return verifyFCSTM(cmd, out, stdout, stderr, args[0], opts, &spf, qf)
			}
			undo, err := spf.prepare(out, stdout, stderr, &opts)
			if err != nil {
				return err
			}
			defer undo()
			rd := inputReader(cmd)
			data, err := rd.ReadFile(args[0])
			if err != nil {
				return refuse(out, stdout, stderr, "INPUT_UNREADABLE", fmt.Sprintf("cannot read %s: %v", args[0], err))
			}
			res, err := jsonmodel.Decode(data)
			if err != nil {
				return refuse(out, stdout, stderr, "INPUT_NOT_JSON", fmt.Sprintf("%s: %v", args[0], err))
			}
			if sc.active() {
				return sc.run(cmd, out, stdout, stderr, args[0], res, opts, cmpf)
			}
			if cmd.Flags().Changed("hash-check") {
				if cmpf.before != "" || cmpf.baseline != "" {
					return refuse(out, stdout, stderr, "BAD_OPTION", "--hash-check cannot be combined with --before-model or --baseline")
				}
				if !isSHA256Hex(hashCheck) {
					return refuse(out, stdout, stderr, "BAD_OPTION", fmt.Sprintf("--hash-check takes a model hash: 64 hexadecimal digits (got %q)", hashCheck))
				}
				return runHashCheck(out, stdout, res, hashCheck)
			}
			return cmpf.verifyAndEmit(rd, out, stdout, stderr, args[0], res, opts)
		},
	}
	out.register(cmd)
	out.registerAllowUndecided(cmd)
	out.progress.register(cmd)
	cmpf.register(cmd)
	spf.register(cmd.Flags())
	f := cmd.Flags()
	f.IntVar(&opts.MaxStates, "max-states", opts.MaxStates, "cap of every breadth-first search, in runtime states")
	f.IntVar(&opts.Workers, "workers", opts.Workers, "explore with `N` goroutines (0: one per core); the report is the same for any N")
	f.IntVar(&opts.MaxFindings, "max-findings", opts.MaxFindings, "list at most `N` findings per check, counting the rest (0 lists all)")
	f.IntVar(&opts.MaxPermutationEvents, "max-permutation-events", opts.MaxPermutationEvents, "A3 sample size")
	f.StringVar(&opts.HashSpec, "hash-spec", opts.HashSpec, "hash spec of modelHash: v1, or v0 to check archived hashes")
	f.BoolVar(&cmpf.prove, "prove", false, "prove by induction the S7 invariants the capped search left undecided (S7_PROVED_BY_INDUCTION)")
	f.StringVar(&hashCheck, "hash-check", "", "report which published hash spec reproduces `HEX`, instead of verifying")
	sc.register(cmd)
	qf.register(f)
	cmd.RunE = interruptible(cmd.RunE, &opts, &out, &spf, stderr)
	return cmd
}

func emitVerify(out outputFlags, stdout io.Writer, name string, rep *report.VerifyReport, res *jsonmodel.Result) error {
	return emitVerifyAt(out, stdout, name, rep, modelLocator(name, res.Raw, res.Model), jsonPicture(name, res))
}

// emitVerifyAt writes a verify report; locate places findings for SARIF.
func emitVerifyAt(out outputFlags, stdout io.Writer, name string, rep *report.VerifyReport, locate func(*report.Finding) report.Location, pic htmlreport.Picture) error {
	verdict, _ := rep.Verdict()
	code := verdictCode(out, rep.Valid && !rep.BeforeInvalid, verdict, rep.Checks)
	var buf bytes.Buffer
	switch out.format {
	case "json", "sarif":
		doc := append(rep.JSON(), report.KV{Key: "exit_code", Value: code})
		if out.format == "sarif" {
			doc = report.SARIF(sarifTool("verify", name), rep.Checks, rep.Findings, locate)
		}
		data, err := report.Indent(doc)
		if err != nil {
			return err
		}
		buf.Write(data)
	case "html":
		data, err := verifyHTML(name, rep, pic)
		if err != nil {
			return err
		}
		buf.Write(data)
	default:
		color, err := useColor(out.color, stdout)
		if err != nil || out.out != "" {
			color = false
		}
		if err := report.WriteVerifyText(&buf, name, rep, report.Style{Color: color}); err != nil {
			return err
		}
	}
	if err := out.write(stdout, buf.Bytes()); err != nil {
		return err
	}
	return exitWith(code)
}

func runHashCheck(out outputFlags, stdout io.Writer, res *jsonmodel.Result, digest string) error {
	hc := &report.HashCheck{Checked: strings.ToLower(strings.TrimSpace(digest))}
	for _, spec := range jsonmodel.HashSpecs() {
		h, _ := jsonmodel.Hash(res.Raw, spec)
		hc.Published = append(hc.Published, [2]string{spec, h})
	}
	var data []byte
	if out.format == "json" {
		var err error
		if data, err = report.Indent(hc.JSON()); err != nil {
			return err
		}
	} else {
		var b strings.Builder
		j := hc.JSON()
		fmt.Fprintf(&b, "%s: %s\n", strings.ToUpper(j.Get("verdict").(string)), j.Get("verdictReason"))
		for _, p := range hc.Published {
			fmt.Fprintf(&b, "  %s %s\n", p[0], p[1])
		}
		data = []byte(b.String())
	}
	if err := out.write(stdout, data); err != nil {
		return err
	}
	if len(hc.Matches()) == 0 {
		return &exitError{2}
	}
	return nil
}

// isSHA256Hex reports whether s (trimmed, any case) is a SHA-256 digest
// in hexadecimal, the form of every published model hash.
func isSHA256Hex(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// refuse reports a verify tool refusal: JSON on stdout with --json, a
// message on stderr otherwise; exit 2 either way.
func refuse(out outputFlags, stdout, stderr io.Writer, code, msg string) error {
	return refuseAs(report.VerifySchema, out, stdout, stderr, code, msg)
}

// refuseAs is refuse for the report contract schema.
func refuseAs(schema string, out outputFlags, stdout, stderr io.Writer, code, msg string) error {
	if out.format == "json" || out.json {
		r := &report.Refusal{Schema: schema, Code: code, Err: msg}
		data, err := report.Indent(append(r.JSON(), report.KV{Key: "exit_code", Value: exitInput}))
		if err != nil {
			return err
		}
		if err := out.write(stdout, data); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stderr, "stateproof: %s (%s)\n", msg, code)
	}
	return &exitError{exitInput}
}
