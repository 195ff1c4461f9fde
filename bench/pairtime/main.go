// Command pairtime times two commands against each other as whole
// processes: after a warm-up run of each, it runs A, B, A, B, … N times,
// reads each finished run's CPU time (user + system), wall time and peak
// memory from the kernel's accounting (wait4's rusage, microseconds), and
// prints min, median and max of each figure and of the ratio A/B taken
// pair by pair, so that a comparison holds when the machine's speed drifts.
//
//	go run ./bench/pairtime [-n 20] [-warmup 1] -- A [ARG...] --vs B [ARG...]
//
// Without --vs it times A alone. A command's output is discarded; its exit
// status is reported, not acted on. Quote medians and ratios: a wide
// min–max says the machine was noisy.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// run is one finished run's figures.
type run struct {
	cpu, wall float64 // seconds
	rssMiB    float64
	exit      int
}

func main() {
	n := flag.Int("n", 10, "counted runs of each command")
	warmup := flag.Int("warmup", 1, "uncounted runs of each command first")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: pairtime [-n RUNS] [-warmup N] -- A [ARG...] [--vs B [ARG...]]")
		flag.PrintDefaults()
	}
	flag.Parse()
	a, b := split(flag.Args())
	if len(a) == 0 || *n < 1 || *warmup < 0 {
		flag.Usage()
		os.Exit(2)
	}
	cmds := [][]string{a}
	if len(b) > 0 {
		cmds = append(cmds, b)
	}
	runs := make([][]run, len(cmds))
	for i := 0; i < *warmup+*n; i++ {
		for c, argv := range cmds {
			r, err := once(argv)
			if err != nil {
				fmt.Fprintln(os.Stderr, "pairtime:", err)
				os.Exit(2)
			}
			if i >= *warmup {
				runs[c] = append(runs[c], r)
			}
		}
	}
	report(cmds, runs)
}

// split cuts args at "--vs".
func split(args []string) (a, b []string) {
	if i := slices.Index(args, "--vs"); i >= 0 {
		return args[:i], args[i+1:]
	}
	return args, nil
}

// once runs argv to completion with its output discarded.
func once(argv []string) (run, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return run{}, err
	}
	st := cmd.ProcessState
	r := run{cpu: (st.UserTime() + st.SystemTime()).Seconds(), wall: wall, exit: st.ExitCode()}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		r.rssMiB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return r, nil
}

// spread is min, median and max.
func spread(xs []float64) (lo, mid, hi float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[0], s[(len(s)-1)/2], s[len(s)-1]
}

func report(cmds [][]string, runs [][]run) {
	names := []string{"A", "B"}
	for c, argv := range cmds {
		fmt.Printf("%s: %q, %d runs, exit codes %v\n", names[c], argv, len(runs[c]), exits(runs[c]))
	}
	fmt.Printf("%-12s %10s %10s %10s\n", "figure", "min", "median", "max")
	row := func(label string, xs []float64) {
		lo, mid, hi := spread(xs)
		fmt.Printf("%-12s %10.4f %10.4f %10.4f\n", label, lo, mid, hi)
	}
	pick := func(rs []run, f func(run) float64) []float64 {
		out := make([]float64, len(rs))
		for i, r := range rs {
			out[i] = f(r)
		}
		return out
	}
	cpu := func(r run) float64 { return r.cpu }
	wall := func(r run) float64 { return r.wall }
	rss := func(r run) float64 { return r.rssMiB }
	for c := range cmds {
		row(names[c]+" cpu s", pick(runs[c], cpu))
		row(names[c]+" wall s", pick(runs[c], wall))
		row(names[c]+" peak MiB", pick(runs[c], rss))
	}
	if len(cmds) == 2 {
		ratios := func(f func(run) float64) []float64 {
			out := make([]float64, len(runs[0]))
			for i := range runs[0] {
				out[i] = f(runs[0][i]) / f(runs[1][i])
			}
			return out
		}
		row("A/B cpu", ratios(cpu))
		row("A/B wall", ratios(wall))
	}
}

// exits lists the distinct exit codes of rs.
func exits(rs []run) []int {
	var out []int
	for _, r := range rs {
		if !slices.Contains(out, r.exit) {
			out = append(out, r.exit)
		}
	}
	return out
}
