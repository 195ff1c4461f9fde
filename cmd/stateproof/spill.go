package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/spill"
	"github.com/stateproof/stateproof/internal/verify"
)

// spillFlags are verify's memory budget and spill flags (docs/scale.md).
type spillFlags struct {
	memory, dir, maxDisk string
	halt                 *halt // the run's, when it can be stopped by a signal
}

func (f *spillFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.memory, "memory", "", "keep at most `SIZE` of the exploration in memory (512MiB, 8GiB, 1.5GB; default half the machine's memory; with --partition or --local-partitions, per worker) and spill the rest to disk; the report is the same")
	fs.StringVar(&f.dir, "spill-dir", "", "spill into a fresh directory made in `DIR` (default the system temp directory), removed at exit")
	fs.StringVar(&f.maxDisk, "max-disk", "", "stop a spilling exploration at `SIZE` of spill files: what it leaves open is undecided (default: no limit)")
}

// spillHeadroom is what the Go runtime may hold past --memory.
const spillHeadroom = 32 << 20

// errSpillDir is a --spill-dir that cannot hold spill files.
var errSpillDir = errors.New("unusable --spill-dir")

// prepare sets up the spill flags in opts (setup) and validates opts; on
// a refusal (exit 2, written to the output) nothing is left to undo.
func (f *spillFlags) prepare(out outputFlags, stdout, stderr io.Writer, opts *verify.Options) (undo func(), err error) {
	if undo, err = f.setup(opts); err != nil {
		code := "BAD_OPTION"
		if errors.Is(err, errSpillDir) {
			code = "SPILL_DIR_UNUSABLE"
		}
		return nil, refuse(out, stdout, stderr, code, err.Error())
	}
	if err := opts.Validate(); err != nil {
		undo()
		return nil, refuse(out, stdout, stderr, "BAD_OPTION", optionMessage(err))
	}
	return undo, nil
}

// setup parses the flags into opts.Spill and returns what undoes it (the
// spill directory removed, the memory limit restored). A bad size is an
// option error; an unusable --spill-dir is errSpillDir.
func (f *spillFlags) setup(opts *verify.Options) (func(), error) {
	memory := spill.DefaultMemory()
	limit := debug.SetMemoryLimit(-1)
	if f.memory != "" {
		m, err := parseSize(f.memory)
		if err != nil {
			return nil, fmt.Errorf("--memory: %w", err)
		}
		memory = m
		// the collector keeps the heap near the budget rather than at
		// twice the live data; the process may pass the budget by 64
		// MiB (docs/scale.md), and of those the executable's own
		// resident pages, which the runtime's limit does not count,
		// and what the runtime holds beside the heap take about 27 (gen
		// counter 30000000 at 138 MiB peaked at 225 MiB of RSS with the
		// limit at the budget + 64 MiB, at 206 with the budget + 40)
		debug.SetMemoryLimit(memory + spillHeadroom)
	}
	var maxDisk int64
	if f.maxDisk != "" {
		m, err := parseSize(f.maxDisk)
		if err != nil {
			return nil, fmt.Errorf("--max-disk: %w", err)
		}
		maxDisk = m
	}
	d := spill.New(f.dir, maxDisk)
	if f.dir != "" {
		// a directory the user named is checked now, not after an hour
		var err error
		if d, err = spill.Open(f.dir, maxDisk); err != nil {
			return nil, fmt.Errorf("%w %s: %v", errSpillDir, f.dir, err)
		}
	}
	opts.Spill = &verify.Spilling{Spill: explore.Spill{Memory: memory, Dir: d}}
	// a run stopped by a signal removes the files once its search has
	// returned (the deferred undo); only one that does not unwind in
	// time has them removed under it, as the process exits
	f.halt.onForce(func() { d.Close() })
	return func() {
		d.Close()
		debug.SetMemoryLimit(limit)
	}, nil
}

// parseSize is spill.ParseSize, with a negative size named as such
// rather than as a size whose unit is "-1".
func parseSize(s string) (int64, error) {
	if strings.HasPrefix(strings.TrimSpace(s), "-") {
		return 0, fmt.Errorf("size %q must not be negative: give a size such as 512MiB or 1.5GB", s)
	}
	return spill.ParseSize(s)
}

// reportSpill prints what a spilled exploration wrote, on stderr: the
// report does not depend on it (docs/reports.md).
func reportSpill(stderr io.Writer, sp *verify.Spilling) {
	st := sp.Stats
	if st.Spills == 0 {
		return
	}
	perState := float64(st.PeakDisk) / float64(max(st.Nodes, 1))
	fmt.Fprintf(stderr, "stateproof: spilled %d of %d runtime states to disk (%d spills, peak disk %s, %.1f B/state, %d run blocks read)\n",
		st.SpilledNodes, st.Nodes, st.Spills, spill.FormatSize(st.PeakDisk), perState, st.BlockReads)
}
