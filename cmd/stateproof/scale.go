package main

import (
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
}

func (s *scaleFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&s.swarm, "swarm", "", "run swarm member `I/N`: a diversified depth-first search that reports violations or undecided, never pass (combine with stateproof merge)")
	f.Int64Var(&s.seed, "seed", 1, "base random seed of --swarm (each member derives its own from it)")
}

// active reports whether the run is not the plain single-process verify.
func (s *scaleFlags) active() bool { return s.swarm != "" }

// run runs a verify that some scale flag asked for.
func (s *scaleFlags) run(cmd *cobra.Command, out outputFlags, stdout, stderr io.Writer, name string, res *jsonmodel.Result, opts verify.Options, cmpf compareFlags) error {
	if cmpf.before != "" || cmpf.baseline != "" || cmd.Flags().Changed("hash-check") || cmpf.prove {
		return refuse(out, stdout, stderr, "BAD_OPTION", "--swarm cannot be combined with --before-model, --baseline, --hash-check or --prove")
	}
	return runSwarm(out, stdout, stderr, name, res, opts, s.swarm, s.seed)
}
