package verify

import (
	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/report"
)

// MaxPermutationEvents bounds A3's sample: it applies every permutation,
// and 8! = 40320 orders is already a lot of runs.
const MaxPermutationEvents = 8

// MaxWorkers bounds Options.Workers: more goroutines than that only add
// per-batch overhead.
const MaxWorkers = 1024

// Validate refuses options no run can honour, with a *report.OptionError.
// The command line and the MCP server both call it, so they accept and
// refuse the same values.
func (o Options) Validate() error {
	maxStates := report.CheckMaxStates(o.MaxStates)
	if o.Spill != nil {
		// a spilling search keeps past the memory budget what a larger
		// cap needs; parent links are 32-bit node indices
		maxStates = report.CheckRange("maxStates", o.MaxStates, 1, explore.MaxSpillStates)
	}
	for _, err := range []error{
		maxStates,
		report.CheckRange("maxPermutationEvents", o.MaxPermutationEvents, 1, MaxPermutationEvents),
		report.CheckHashSpec(o.HashSpec),
		report.CheckRange("maxFindings", o.MaxFindings, 0, -1),
		report.CheckRange("workers", o.Workers, 0, MaxWorkers),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}
