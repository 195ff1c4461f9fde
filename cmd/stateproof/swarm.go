package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/fcstm/explicit"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/input"
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

// swarmShare reads --swarm's I/N, or says why the member cannot run.
func swarmShare(out outputFlags, share string) (i, n int, msg string) {
	i, n, err := parseShare("swarm", share)
	switch {
	case err != nil:
		return 0, 0, err.Error()
	case out.format == "sarif" || out.format == "html":
		return 0, 0, "--format " + out.format + " cannot be combined with --swarm: a member writes text or json (a swarm report, for stateproof merge)"
	}
	return i, n, ""
}

// runSwarm runs one swarm member (verify --swarm) on a decoded model.
func runSwarm(out outputFlags, stdout, stderr io.Writer, name string, res *jsonmodel.Result, opts verify.Options, share string, seed int64) error {
	i, n, msg := swarmShare(out, share)
	if msg != "" {
		return refuse(out, stdout, stderr, "BAD_OPTION", msg)
	}
	if !res.Valid() {
		return emitVerify(out, stdout, name, verify.Run(res, opts), res)
	}
	rep := swarm.Run(swarm.JSON(res.Model), swarm.NewPlan(i, n, seed, opts.MaxStates))
	rep.Model = name
	rep.ModelHash, _ = jsonmodel.Hash(res.Model.Raw, opts.HashSpec)
	return emitSwarm(out, stdout, rep)
}

// runSwarmFCSTM runs one swarm member on a linted FCSTM model. A model
// that does not load, or whose cold start fails, has nothing to search:
// the report is verify's, saying why.
func runSwarmFCSTM(out outputFlags, stdout, stderr io.Writer, res *lint.Result, opts verify.Options, share string, seed int64) error {
	i, n, msg := swarmShare(out, share)
	if msg != "" {
		return refuse(out, stdout, stderr, "BAD_OPTION", msg)
	}
	var mc *explicit.Machine
	if res.Model != nil {
		mc, _ = explicit.New(res.Model) // Verify reports why it fails
	}
	if mc == nil {
		if _, err := explicit.Verify(res, explicit.Options{MaxStates: opts.MaxStates}); err != nil {
			return err
		}
		return emitVerifyAt(out, stdout, res.File, res.Report, res.Locator(), fcstmPicture(res.File, res.Model))
	}
	rep := swarm.Run(explicit.SwarmTarget(mc), swarm.NewPlan(i, n, seed, opts.MaxStates))
	rep.Model = res.File
	rep.ModelHash = res.Report.ModelHash
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
		if v.ShortenStopped != "" {
			fmt.Fprintf(&b, "    not fully shortened: %s\n", v.ShortenStopped)
		}
		for _, s := range v.Path {
			fmt.Fprintf(&b, "    %s --%s--> %s\n", s.From, s.Event, s.To)
		}
	}
	return b.Bytes()
}

func newMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var out outputFlags
	var model string
	maxStates, timeoutMS := 100000, 10000
	cmd := &cobra.Command{
		Use:   "merge SWARM-REPORT.json...",
		Short: "Combine swarm reports (verify --swarm --json): replay, shorten and deduplicate their violations",
		Long: `merge reads the reports of swarm members (stateproof verify MODEL --swarm I/N
--json) and combines them; MODEL is a JSON or an FCSTM model. Every violation is
replayed on the model's runtime first (an FCSTM step is a cycle, replayed with
its input set): a path that does not replay, or does not end in a violation of
its invariant (for an FCSTM model, in its cycle that raises or dead end), is
refused as an error (exit 2), never reported. Copies of one
violation are merged, then the shortest path found per invariant is shortened
(breadth-first from the initial runtime, up to --max-states, and failing that
from the runtimes along the path) within --timeout-ms; when that runs out, the
rest of the path is kept as found and the report says so (shortenStopped).

The model is --model, or else the one the first report names, which must be a
relative path inside that report's folder.

A swarm never decides a pass: with no violation the verdict is undecided
(exit 3); with one, fail (exit 1). See docs/scale.md#swarm.

merge writes text or json: --format sarif or html is refused (exit 2), and
so are --color (the text is not coloured), --json with another --format and
--import-root.`,
		Example: `  stateproof verify model.json --swarm 0/4 --json -o s0.json   # ... up to 3/4
  stateproof merge s0.json s1.json s2.json s3.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			if err := out.resolve(cmd); err != nil {
				return refuse(out, stdout, stderr, "BAD_OPTION", err.Error())
			}
			if out.format == "sarif" || out.format == "html" {
				return refuse(out, stdout, stderr, "BAD_OPTION", "merge writes --format text or json")
			}
			if msg := noColor(cmd); msg != "" {
				return refuse(out, stdout, stderr, "BAD_OPTION", msg)
			}
			if err := report.CheckMaxStates(maxStates); err != nil {
				return refuse(out, stdout, stderr, "BAD_OPTION", optionMessage(err))
			}
			if err := report.CheckRange("timeoutMs", timeoutMS, 0, -1); err != nil {
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
			name, target, hash, ref := mergeTarget(rd, model, inputs[0])
			if ref != nil {
				return refuse(out, stdout, stderr, ref.code, ref.msg)
			}
			opt := swarm.Options{Cap: maxStates, Deadline: start.Add(time.Duration(timeoutMS) * time.Millisecond)}
			merged, err := swarm.Merge(target, name, hash, inputs, opt)
			if err != nil {
				return refuse(out, stdout, stderr, "SWARM_PATH_REFUSED", err.Error())
			}
			return emitSwarm(out, stdout, merged)
		},
	}
	out.register(cmd)
	// a swarm report has no findings to locate or page to draw
	cmd.Flags().Lookup("format").Usage = "output format: text or json"
	cmd.Flags().StringVar(&model, "model", "", "the model the reports are about (default: the model the first report names, inside that report's folder)")
	cmd.Flags().IntVar(&maxStates, "max-states", maxStates, "cap of each breadth-first search that shortens a violation")
	cmd.Flags().IntVar(&timeoutMS, "timeout-ms", timeoutMS, "budget in milliseconds for shortening; at it the rest of each path is kept as found (0: none shortened)")
	return cmd
}

// mergeTarget loads the model of a merge, a JSON or an FCSTM model (by
// its extension): model, or else the one the first report names. It
// returns the model's name, its swarm target and its hash.
func mergeTarget(rd input.Reader, path string, first swarm.Input) (string, swarm.Target, string, *refusal) {
	var data []byte
	var ref *refusal
	named := path == ""
	if named {
		path, data, ref = reportModel(rd, first)
		// what the model imports stays in the report's folder too
		rd.ImportRoot = filepath.Dir(first.Name)
	} else {
		var err error
		if data, err = rd.ReadFile(path); err != nil {
			ref = &refusal{"INPUT_UNREADABLE", fmt.Sprintf("cannot read model %s: %v", path, err)}
		}
	}
	if ref != nil {
		return path, nil, "", ref
	}
	invalid := &refusal{"MODEL_INVALID", fmt.Sprintf("%s is not a valid model (run stateproof verify on it)", path)}
	if isFCSTM(path) {
		res := lint.CheckSource(path, data, model.ReaderOptions(rd))
		if res.Model == nil {
			return path, nil, "", invalid
		}
		mc, err := explicit.New(res.Model)
		if err != nil {
			return path, nil, "", invalid
		}
		return path, explicit.SwarmTarget(mc), res.Report.ModelHash, nil
	}
	res, err := jsonmodel.Decode(data)
	if err != nil {
		if named {
			return path, nil, "", &refusal{"INPUT_NOT_JSON", fmt.Sprintf("%s: the model %s it names is not a JSON model: pass the model with --model (docs/scale.md#swarm)", first.Name, path)}
		}
		return path, nil, "", &refusal{"INPUT_NOT_JSON", fmt.Sprintf("model %s: %v", path, err)}
	}
	if !res.Valid() {
		return path, nil, "", invalid
	}
	hash, _ := jsonmodel.Hash(res.Model.Raw, "v1")
	return path, swarm.JSON(res.Model), hash, nil
}

// reportModel reads the model a report names, which must be a relative
// path inside the report's folder: the report is untrusted input, so it
// cannot make merge read a file the user did not name (an absolute path,
// a ".." or a symbolic link out of the folder), and no refusal quotes the
// file's bytes.
func reportModel(rd input.Reader, in swarm.Input) (string, []byte, *refusal) {
	named := in.Report.Model
	const hint = "pass the model with --model (docs/scale.md#swarm)"
	if named == "" || !filepath.IsLocal(named) {
		return named, nil, &refusal{"INPUT_UNREADABLE", fmt.Sprintf("%s: $.model %q is not a relative path inside the report's folder: %s", in.Name, named, hint)}
	}
	dir := filepath.Dir(in.Name)
	path := filepath.Join(dir, named)
	data, err := rd.ReadFileIn(dir, path)
	switch {
	case errors.Is(err, input.ErrOutsideRoot):
		return path, nil, &refusal{"INPUT_UNREADABLE", fmt.Sprintf("%s: $.model %q leads out of the report's folder through a symbolic link: %s", in.Name, named, hint)}
	case err != nil:
		return path, nil, &refusal{"INPUT_UNREADABLE", fmt.Sprintf("%s: cannot read the model %s it names: %v; %s", in.Name, path, err, hint)}
	}
	return path, data, nil
}
