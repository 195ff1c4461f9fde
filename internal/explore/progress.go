package explore

import "github.com/stateproof/stateproof/internal/progress"

// progress sends the search's snapshot when one is due. It runs on the
// search's goroutine between batches or epochs, when no other goroutine
// writes the graph.
func (r *runner) progress() {
	s := r.s
	if s.Progress == nil || !r.sample.Due() {
		return
	}
	g := r.g
	depth := r.levels.At(g.Expanded, g.n, func(i int) int { return int(g.link(i).parent) })
	s.Progress.Report(progress.Snapshot{Engine: progress.Search, Task: s.Task,
		States: int64(g.n), Queue: int64(g.n - g.Expanded), Depth: depth})
}
