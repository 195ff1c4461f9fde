package progress

import (
	"sync"
	"time"
)

// Tick is what a Watch hands its output: the latest snapshot, how long
// the run has gone on, and the search's rate since the last tick.
type Tick struct {
	Snapshot
	Elapsed time.Duration
	// Rate is states stored per second since the last tick of the same
	// search task, or since the start for the first; negative when not
	// known (not a search, or the task changed).
	Rate float64
}

// Watch keeps the latest snapshot an engine reports and hands it to an
// output every interval, from a goroutine of its own, until Stop. Ticks
// before any snapshot arrived are skipped: there is nothing to say yet.
type Watch struct {
	mu     sync.Mutex
	last   Snapshot
	have   bool
	start  time.Time
	stop   chan struct{}
	gone   chan struct{}
	output func(Tick)
}

// NewWatch starts a watch that calls output first after delay, then
// every interval (both > 0). output runs on the watch's goroutine, never
// two at once.
func NewWatch(delay, interval time.Duration, output func(Tick)) *Watch {
	w := &Watch{start: time.Now(), stop: make(chan struct{}), gone: make(chan struct{}), output: output}
	go w.run(delay, interval)
	return w
}

// Report keeps s as the latest snapshot.
func (w *Watch) Report(s Snapshot) {
	w.mu.Lock()
	w.last, w.have = s, true
	w.mu.Unlock()
}

// Stop ends the watch; no output runs after it returns.
func (w *Watch) Stop() {
	close(w.stop)
	<-w.gone
}

func (w *Watch) run(delay, interval time.Duration) {
	defer close(w.gone)
	timer := time.NewTimer(delay)
	defer timer.Stop()
	var prev Snapshot
	var prevAt time.Duration
	for {
		select {
		case <-w.stop:
			return
		case <-timer.C:
		}
		timer.Reset(interval)
		w.mu.Lock()
		s, have := w.last, w.have
		w.mu.Unlock()
		if !have {
			continue
		}
		t := Tick{Snapshot: s, Elapsed: time.Since(w.start), Rate: -1}
		if s.Engine == Search {
			t.Rate = rate(prev, prevAt, s, t.Elapsed)
		}
		w.output(t)
		prev, prevAt = s, t.Elapsed
	}
}

// rate is the states stored per second between two snapshots of one
// search task; from the start when prev is none.
func rate(prev Snapshot, prevAt time.Duration, s Snapshot, at time.Duration) float64 {
	if prev.Engine == "" {
		prevAt = 0
	} else if prev.Engine != s.Engine || prev.Task != s.Task || prev.States > s.States {
		return -1
	}
	dt := (at - prevAt).Seconds()
	if dt <= 0 {
		return -1
	}
	return float64(s.States-prev.States) / dt
}
