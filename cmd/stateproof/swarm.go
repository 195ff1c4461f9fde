package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/swarm"
	"github.com/stateproof/stateproof/internal/verify"
)

// parseShare reads the I/N of --swarm and --partition: 0 <= I < N.
func parseShare(flag, s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, errI := strconv.Atoi(a)
	n, errN := strconv.Atoi(b)
	if !ok || errI != nil || errN != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--%s takes I/N with 0 <= I < N (got %q)", flag, s)
	}
	return i, n, nil
}

// runSwarm runs one swarm member (verify --swarm) on a decoded model.
func runSwarm(out outputFlags, stdout, stderr io.Writer, name string, res *jsonmodel.Result, opts verify.Options, share string, seed int64) error {
	i, n, err := parseShare("swarm", share)
	if err != nil {
		return refuse(out, stdout, stderr, "BAD_OPTION", err.Error())
	}
	if out.format == "sarif" || out.format == "html" {
		return refuse(out, stdout, stderr, "BAD_OPTION", "--swarm writes text or json (a swarm report, for stateproof merge)")
	}
	if !res.Valid() {
		return emitVerify(out, stdout, name, verify.Run(res, opts), res)
	}
	rep := swarm.Run(res.Model, swarm.NewPlan(i, n, seed, opts.MaxStates))
	rep.Model = name
	rep.ModelHash, _ = jsonmodel.Hash(res.Model.Raw, opts.HashSpec)
	return emitSwarm(out, stdout, rep)
}

// emitSwarm writes a member or merge report and exits with its code.
func emitSwarm(out outputFlags, stdout io.Writer, rep *swarm.Report) error {
	var data []byte
	if out.format == "json" {
		var err error
		if data, err = rep.Encode(); err != nil {
			return err
		}
	} else {
		data = swarmText(rep)
	}
	if err := out.write(stdout, data); err != nil {
		return err
	}
	return exitWith(rep.ExitCode)
}

func swarmText(rep *swarm.Report) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s\n", strings.ToUpper(rep.Verdict), rep.VerdictReason)
	if rep.Member != nil {
		fmt.Fprintf(&b, "  swarm member %d/%d, seed %d, depth limit %d, %d runtime states explored (cap %d)\n", *rep.Member, *rep.Members, *rep.Seed, *rep.DepthLimit, *rep.Explored, rep.Cap)
	}
	for _, v := range rep.Violations {
		fmt.Fprintf(&b, "  %s %s (%d steps)\n", v.Code, v.Message, len(v.Path))
		for _, s := range v.Path {
			fmt.Fprintf(&b, "    %s --%s--> %s\n", s.From, s.Event, s.To)
		}
	}
	return b.Bytes()
}

func newMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var out outputFlags
	var model string
	maxStates := 100000
	cmd := &cobra.Command{
		Use:   "merge SWARM-REPORT.json...",
		Short: "Combine swarm reports (verify --swarm --json): replay, shorten and deduplicate their violations",
		Long: `merge reads the reports of swarm members (stateproof verify MODEL --swarm I/N
--json) and combines them. Every violation is replayed on the model's runtime
first: a path that does not replay, or does not end in a violation of its
invariant, is refused as an error (exit 2), never reported. Each violation is
then shortened (breadth-first from the initial runtime, up to --max-states,
and failing that from the runtimes along the path) and the shortest per
invariant is kept.

A swarm never decides a pass: with no violation the verdict is undecided
(exit 3); with one, fail (exit 1). See docs/scale.md#swarm.`,
		Example: `  stateproof verify model.json --swarm 0/4 --json -o s0.json   # ... up to 3/4
  stateproof merge s0.json s1.json s2.json s3.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := out.resolve(); err != nil || out.format == "sarif" || out.format == "html" {
				return refuse(out, stdout, stderr, "BAD_OPTION", "merge writes --format text or json")
			}
			if err := report.CheckMaxStates(maxStates); err != nil {
				return refuse(out, stdout, stderr, "BAD_OPTION", optionMessage(err))
			}
			rd := inputReader(cmd)
			var inputs []swarm.Input
			for _, name := range args {
				data, err := rd.ReadFile(name)
				if err != nil {
					return refuse(out, stdout, stderr, "INPUT_UNREADABLE", fmt.Sprintf("cannot read %s: %v", name, err))
				}
				r, err := swarm.Decode(name, data)
				if err != nil {
					return refuse(out, stdout, stderr, "INPUT_INVALID", err.Error())
				}
				inputs = append(inputs, swarm.Input{Name: name, Report: r})
			}
			if model == "" {
				model = inputs[0].Report.Model
			}
			res, ref := readModel(rd, model, "model ")
			if ref != nil {
				return refuse(out, stdout, stderr, ref.code, ref.msg)
			}
			if !res.Valid() {
				return refuse(out, stdout, stderr, "MODEL_INVALID", fmt.Sprintf("%s is not a valid model (run stateproof verify on it)", model))
			}
			hash, _ := jsonmodel.Hash(res.Model.Raw, "v1")
			merged, err := swarm.Merge(res.Model, model, hash, inputs, maxStates)
			if err != nil {
				return refuse(out, stdout, stderr, "SWARM_PATH_REFUSED", err.Error())
			}
			return emitSwarm(out, stdout, merged)
		},
	}
	out.register(cmd)
	cmd.Flags().StringVar(&model, "model", "", "the model the reports are about (default: the model the first report names)")
	cmd.Flags().IntVar(&maxStates, "max-states", maxStates, "cap of each breadth-first search that shortens a violation")
	return cmd
}
