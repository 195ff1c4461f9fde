package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stateproof/stateproof/internal/baseline"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/progress"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
)

// compareFlags are the verify flags of a before/after comparison and of a
// baseline diff.
type compareFlags struct {
	prove    bool // hand S7_UNDECIDED invariants to stateproof prove
	before   string
	mapping  string
	baseline string
}

func (c *compareFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&c.before, "before-model", "", "compare with the BEFORE model in `FILE` (alias --before): runs D1-D4, the main model is AFTER")
	f.StringVar(&c.mapping, "state-mapping", "", "JSON object in `FILE` mapping BEFORE state ids to AFTER state ids (with --before-model)")
	f.StringVar(&c.baseline, "baseline", "", "print what changed since the earlier report in `FILE` instead of the report")
	f.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		if name == "before" {
			name = "before-model"
		}
		return pflag.NormalizedName(name)
	})
}

// refusal is a tool refusal found while loading inputs.
type refusal struct{ code, msg string }

// runVerify verifies res, comparing it with the BEFORE model when one is
// given.
func (c *compareFlags) runVerify(rd input.Reader, res *jsonmodel.Result, opts verify.Options) (*report.VerifyReport, *refusal) {
	if c.before == "" {
		if c.mapping != "" {
			return nil, &refusal{"BAD_OPTION", "--state-mapping needs --before-model"}
		}
		return verify.Run(res, opts), nil
	}
	before, ref := readModel(rd, c.before, "before model ")
	if ref != nil {
		return nil, ref
	}
	mapping := map[string]string{}
	if c.mapping != "" {
		if mapping, ref = readMapping(rd, c.mapping); ref != nil {
			return nil, ref
		}
		if before.Valid() {
			if err := verify.CheckMapping(before.Model, mapping); err != nil {
				return nil, &refusal{"BAD_OPTION", fmt.Sprintf("%s: %v", c.mapping, err)}
			}
		}
	}
	return verify.RunComparison(res, before, mapping, opts), nil
}

// readModel reads and decodes one model file.
func readModel(rd input.Reader, path, what string) (*jsonmodel.Result, *refusal) {
	data, err := rd.ReadFile(path)
	if err != nil {
		return nil, &refusal{"INPUT_UNREADABLE", fmt.Sprintf("cannot read %s%s: %v", what, path, err)}
	}
	res, err := jsonmodel.Decode(data)
	if err != nil {
		return nil, &refusal{"INPUT_NOT_JSON", fmt.Sprintf("%s%s: %v", what, path, err)}
	}
	return res, nil
}

// readMapping reads a stateMapping file: a JSON object of strings.
func readMapping(rd input.Reader, path string) (map[string]string, *refusal) {
	data, err := rd.ReadFile(path)
	if err != nil {
		return nil, &refusal{"INPUT_UNREADABLE", fmt.Sprintf("cannot read state mapping %s: %v", path, err)}
	}
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, &refusal{"INPUT_NOT_JSON", fmt.Sprintf("state mapping %s: not JSON: %v", path, err)}
	}
	out, err := verify.MappingFromJSON(v)
	if err != nil {
		return nil, &refusal{"BAD_OPTION", fmt.Sprintf("%s: %v", path, err)}
	}
	return out, nil
}

// loadBaseline reads the earlier report of --baseline.
func loadBaseline(rd input.Reader, path string) (*baseline.Report, *refusal) {
	data, err := rd.ReadFile(path)
	if err != nil {
		return nil, &refusal{"INPUT_UNREADABLE", fmt.Sprintf("cannot read baseline %s: %v", path, err)}
	}
	b, err := baseline.Parse(data)
	if err != nil {
		return nil, &refusal{"BASELINE_INVALID", fmt.Sprintf("baseline %s: %v", path, err)}
	}
	return b, nil
}

// verifyAndEmit runs verify (with D1-D4 when a BEFORE model is given) and
// prints the report, or the baseline diff with --baseline.
func (c *compareFlags) verifyAndEmit(rd input.Reader, out outputFlags, stdout, stderr io.Writer, name string, res *jsonmodel.Result, opts verify.Options) error {
	var base *baseline.Report
	if c.baseline != "" {
		var ref *refusal
		if base, ref = loadBaseline(rd, c.baseline); ref != nil {
			return refuse(out, stdout, stderr, ref.code, ref.msg)
		}
	}
	var rep *report.VerifyReport
	var ref *refusal
	err := out.progress.run(stderr, "verifying "+name, func(pr progress.Reporter) error {
		opts.Progress = pr
		rep, ref = c.runVerify(rd, res, opts)
		if ref == nil && c.prove && res.Valid() {
			return proveUndecided(rep, res.Model, name)
		}
		return nil
	})
	if ref != nil {
		return refuse(out, stdout, stderr, ref.code, ref.msg)
	}
	if err != nil {
		return err
	}
	if sp := opts.Spill; sp != nil {
		// a store error leaves the report incomplete: it is not shown
		if sp.Err != nil {
			return refuse(out, stdout, stderr, "SPILL_FAILED", fmt.Sprintf("the exploration could not spill to disk: %v", sp.Err))
		}
		reportSpill(stderr, sp)
	}
	if base != nil {
		return emitBaseline(out, stdout, stderr, report.VerifySchema, c.baseline, base, rep.JSON())
	}
	return emitVerify(out, stdout, name, rep, res)
}

// emitBaseline prints the diff of the current report against the baseline
// and exits 1 (2 with --legacy-exit-codes) when the delta verdict is fail.
func emitBaseline(out outputFlags, stdout, stderr io.Writer, schema, name string, base *baseline.Report, current report.Obj) error {
	cur, err := baseline.FromJSON(current)
	if err != nil {
		return err
	}
	if err := base.Comparable(cur); err != nil {
		return refuseAs(schema, out, stdout, stderr, "BASELINE_INVALID", fmt.Sprintf("baseline %s: %v", name, err))
	}
	d := baseline.Compare(base, cur)
	code := exitHolds
	if v, _ := d.Verdict(); v == report.Fail {
		code = out.failExit()
	}
	var buf bytes.Buffer
	if out.format == "json" {
		data, err := report.Indent(append(d.JSON(), report.KV{Key: "exit_code", Value: code}))
		if err != nil {
			return err
		}
		buf.Write(data)
	} else if err := baseline.WriteText(&buf, name, d, report.Style{Color: textColor(out, stdout)}); err != nil {
		return err
	}
	if err := out.write(stdout, buf.Bytes()); err != nil {
		return err
	}
	return exitWith(code)
}

// textColor decides colour for text output (never when writing a file).
func textColor(out outputFlags, stdout io.Writer) bool {
	color, err := useColor(out.color, stdout)
	return err == nil && out.out == "" && color
}
