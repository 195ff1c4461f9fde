package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/progress"
)

// report tells Options.Progress that layer starts, with the round and the
// properties settled so far. It runs on the attempt's goroutine, which
// alone writes the results.
func (a *attempt) report(layer string) {
	if a.opts.Progress == nil {
		return
	}
	s := progress.Snapshot{Engine: progress.Prove, Task: fmt.Sprintf("round %d", a.rounds), Layer: layer, Properties: len(a.r.Props)}
	for _, p := range a.r.Props {
		switch p.Status {
		case Verified:
			s.Proved++
		case Violated:
			s.Violated++
		}
	}
	a.opts.Progress.Report(s)
}
