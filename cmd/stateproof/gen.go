package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/gen"
)

// newGenCmd writes generated models for benchmarks: the figures in the
// README are reproduced with `stateproof gen ... > m.json` and
// `stateproof verify m.json --max-states N`.
func newGenCmd(stdout io.Writer) *cobra.Command {
	var lang string
	cmd := &cobra.Command{
		Use:   "gen counter N | gen toggles K | gen probes K | gen ring L | gen pause-counter L",
		Short: "Write a generated benchmark model to stdout",
		Long: `gen writes a JSON model of known size, for benchmarks:

  counter N   one counter stepped from 0 to N, then a terminal DONE state:
              N+2 reachable runtime states
  toggles K   K independent boolean switches in one state: 2^K reachable
              runtime states (K=20 gives 1,048,576)
  probes K    a batch job with two counters to K and one invariant of every
              path kind, all holding: (K+1)^2 + 3 reachable runtime states
              (K=316 gives 100,492; K=1000 gives 1,002,004)
  ring L      a ring of ten states with a lap counter modulo L: 10*L runtime
              states; three rings of L=10 compose into 10^6 composite states
  pause-counter L
              the BMC benchmark family: Run with an inc self-loop, dec to
              Pause, and Pause back to Run while c < L

--format fcstm writes counter and toggles as FCSTM models with the same
reachable runtime states (counter steps on empty cycles; toggle i flips on
the event Toggles.On.FlipI), to compare the two languages on one space.

gen reads no file: --max-input-bytes and --import-root are refused (exit 2).`,
		Example: `  stateproof gen toggles 20 > toggles20.json
  stateproof verify toggles20.json --max-states 2000000
  stateproof gen toggles 12 --format fcstm > toggles12.fcstm
  stateproof gen ring 10 > ring.json
  stateproof compose ring.json ring.json ring.json --max-states 1100000`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := strconv.Atoi(args[1])
			if err != nil || n < 1 {
				return fmt.Errorf("gen %s: size must be a positive integer (got %q)", args[0], args[1])
			}
			switch {
			case lang == "json":
			case lang != "fcstm":
				return fmt.Errorf("gen: --format is json or fcstm (got %q)", lang)
			case args[0] == "counter":
				_, err = io.WriteString(stdout, gen.CounterFCSTM(n))
				return err
			case args[0] == "toggles" && n <= 30:
				_, err = io.WriteString(stdout, gen.TogglesFCSTM(n))
				return err
			case args[0] != "toggles":
				return fmt.Errorf("gen %s: no FCSTM version; --format fcstm writes counter and toggles", args[0])
			}
			switch args[0] {
			case "counter":
				_, err = io.WriteString(stdout, gen.Counter(n))
			case "probes":
				_, err = io.WriteString(stdout, gen.Probes(n))
			case "toggles":
				if n > 30 {
					return fmt.Errorf("gen toggles: at most 30 switches (2^30 states)")
				}
				_, err = io.WriteString(stdout, gen.Toggles(n))
			case "ring":
				_, err = io.WriteString(stdout, gen.Ring(n))
			case "pause-counter":
				_, err = io.WriteString(stdout, gen.PauseCounter(n))
			default:
				return fmt.Errorf("gen: unknown family %q (counter, toggles, probes, ring, pause-counter)", args[0])
			}
			return err
		},
	}
	cmd.Flags().StringVar(&lang, "format", "json", "model language: json, or fcstm for counter and toggles (the same state spaces in FCSTM)")
	return cmd
}
