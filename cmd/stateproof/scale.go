package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/verify"
)

// scaleFlags are the verify flags that spread a run over many processes:
// a swarm member, or a worker of a partitioned search (docs/scale.md).
type scaleFlags struct {
	swarm string
	seed  int64
	part  partitionFlags
}

func (s *scaleFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&s.swarm, "swarm", "", "run swarm member `I/N`: a diversified depth-first search that reports violations or undecided, never pass (combine with stateproof merge)")
	f.Int64Var(&s.seed, "seed", 1, "base random seed of --swarm (each member derives its own from it)")
	s.part.register(cmd)
}

// active reports whether the run is not the plain single-process verify.
func (s *scaleFlags) active() bool { return s.swarm != "" || s.part.active() }

// run runs a verify that some scale flag asked for.
func (s *scaleFlags) run(cmd *cobra.Command, out outputFlags, stdout, stderr io.Writer, name string, res *jsonmodel.Result, opts verify.Options, cmpf compareFlags) error {
	what := "--swarm"
	if s.part.active() {
		what = "--partition and --local-partitions"
	}
	if cmpf.before != "" || cmpf.baseline != "" || cmd.Flags().Changed("hash-check") || cmpf.prove {
		return refuse(out, stdout, stderr, "BAD_OPTION", what+" cannot be combined with --before-model, --baseline, --hash-check or --prove")
	}
	if msg := s.conflict(); msg != "" {
		return refuse(out, stdout, stderr, "BAD_OPTION", msg)
	}
	switch {
	case s.part.active() && !res.Valid():
		return emitVerify(out, stdout, name, verify.Run(res, opts), res) // nothing to explore
	case s.part.local > 0:
		return s.part.runLocalOrRefuse(cmd, out, stdout, stderr, name)
	case s.part.active():
		return s.part.runPartition(cmd, out, stdout, stderr, name, res, opts)
	}
	return runSwarm(out, stdout, stderr, name, res, opts, s.swarm, s.seed)
}

// conflict is the refusal of scale flags that exclude each other, or "".
func (s *scaleFlags) conflict() string {
	switch {
	case s.swarm != "" && s.part.active():
		return "--swarm cannot be combined with --partition or --local-partitions"
	case s.part.local > 0 && s.part.share != "":
		return "--local-partitions starts its own workers: it cannot be combined with --partition"
	}
	return ""
}

// runLocalOrRefuse runs --local-partitions: worker 0's report and exit status are
// the command's.
func (p *partitionFlags) runLocalOrRefuse(cmd *cobra.Command, out outputFlags, stdout, stderr io.Writer, name string) error {
	if err := p.runLocal(cmd, stdout, stderr, name); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			return err
		}
		return refuse(out, stdout, stderr, "BAD_OPTION", err.Error())
	}
	return nil
}
