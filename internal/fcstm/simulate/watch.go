package simulate

import (
	"errors"

	"github.com/stateproof/stateproof/internal/progress"
)

// ErrCancelled is the error of a Watched source whose run was cancelled:
// Feed returns it with the cycles before it run.
var ErrCancelled = errors.New("simulate: cancelled")

// Watched wraps src so that a run of it can be watched and stopped:
// before each cycle it looks at done (nil never stops) and, when a sample
// is due, reports the cycles handed out so far, of at most max.
func Watched(src Source, done <-chan struct{}, rep progress.Reporter, max int) Source {
	if max <= 0 {
		max = DefaultMaxCycles
	}
	return &watched{src: src, done: done, rep: rep, max: max}
}

type watched struct {
	src    Source
	done   <-chan struct{}
	rep    progress.Reporter
	sample progress.Sampler
	n, max int
}

// Next implements Source.
func (w *watched) Next() ([]string, bool, error) {
	select {
	case <-w.done:
		return nil, false, ErrCancelled
	default:
	}
	if w.rep != nil && w.sample.Due() {
		w.rep.Report(progress.Snapshot{Engine: progress.Simulate, Cycle: w.n, Cycles: w.max})
	}
	evs, ok, err := w.src.Next()
	if ok {
		w.n++
	}
	return evs, ok, err
}
