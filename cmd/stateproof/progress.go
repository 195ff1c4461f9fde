package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/progress"
)

// Progress on stderr (docs/reports.md#progress): a spinner on a terminal
// (auto), a line every plainEvery for CI logs (plain), or a JSON object a
// line (json). Reports go to stdout and are the same whatever the mode.
const (
	// spinnerAfter is how long work runs before the spinner appears: a
	// quick run stays silent.
	spinnerAfter = time.Second
	spinnerEvery = 250 * time.Millisecond
	plainEvery   = 10 * time.Second
)

// progressModes are the values of --progress.
var progressModes = []string{"auto", "plain", "json", "none"}

// progressMode is the --progress flag's value: one of progressModes.
type progressMode string

func (m *progressMode) String() string { return string(*m) }
func (m *progressMode) Type() string   { return "MODE" }
func (m *progressMode) Set(s string) error {
	for _, v := range progressModes {
		if s == v {
			*m = progressMode(s)
			return nil
		}
	}
	return fmt.Errorf("must be auto, plain, json or none (got %q)", s)
}

// progressFlags are --progress and the hidden --progress-interval, which
// tests shorten.
type progressFlags struct {
	mode     progressMode
	interval time.Duration
}

func (p *progressFlags) register(c *cobra.Command) {
	p.mode = "auto"
	c.Flags().Var(&p.mode, "progress", "progress on stderr: auto (a spinner when stderr is a terminal), plain (a line every 10 s), json (a JSON object a line) or none")
	c.Flags().DurationVar(&p.interval, "progress-interval", plainEvery, "the interval of --progress plain and json")
	_ = c.Flags().MarkHidden("progress-interval") // the flag exists: no error
}

// run runs work with a reporter that shows its progress on stderr as the
// mode says (nil when nothing is shown), and stops showing it when work
// returns.
func (p progressFlags) run(stderr io.Writer, label string, work func(progress.Reporter) error) error {
	w := p.watch(stderr, label)
	if w == nil {
		return work(nil)
	}
	defer w.stop()
	return work(w.Watch)
}

// shown is a watch and what ends its output.
type shown struct {
	*progress.Watch
	end func()
}

func (s *shown) stop() {
	s.Stop()
	if s.end != nil {
		s.end()
	}
}

func (p progressFlags) watch(stderr io.Writer, label string) *shown {
	every := p.interval
	if every <= 0 {
		every = plainEvery
	}
	switch p.mode {
	case "plain":
		return &shown{Watch: progress.NewWatch(every, every, func(t progress.Tick) {
			fmt.Fprintf(stderr, "stateproof: %s: %s\n", label, t.Text())
		})}
	case "json":
		return &shown{Watch: progress.NewWatch(every, every, func(t progress.Tick) {
			stderr.Write(append(t.JSON(), '\n'))
		})}
	case "auto":
		if !isTerminal(stderr) {
			return nil
		}
		drawn := false // read after Stop, which waits for the last output
		s := &shown{Watch: progress.NewWatch(spinnerAfter, spinnerEvery, func(t progress.Tick) {
			fmt.Fprintf(stderr, "\r%s… %s\x1b[K", label, t.Text())
			drawn = true
		})}
		s.end = func() {
			if drawn {
				fmt.Fprint(stderr, "\r\x1b[K")
			}
		}
		return s
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
