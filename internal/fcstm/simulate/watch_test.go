package simulate

import (
	"errors"
	"testing"

	"github.com/stateproof/stateproof/internal/progress"
)

// A watched source reports the cycles handed out and stops when done is
// closed, and is otherwise the source it wraps.
func TestWatchedSource(t *testing.T) {
	var snaps []progress.Snapshot
	rep := progress.Func(func(s progress.Snapshot) { snaps = append(snaps, s) })
	src := Watched(&SliceSource{Cycles: [][]string{{"a"}, {}, {"b", "c"}}}, nil, rep, 0)
	var got [][]string
	for {
		evs, ok, err := src.Next()
		if err != nil || !ok {
			break
		}
		got = append(got, evs)
	}
	if len(got) != 3 || got[2][1] != "c" {
		t.Fatalf("cycles %q", got)
	}
	if len(snaps) == 0 || snaps[0].Engine != progress.Simulate || snaps[0].Cycles != DefaultMaxCycles {
		t.Fatalf("snapshots %+v", snaps)
	}
	done := make(chan struct{})
	close(done)
	if _, ok, err := Watched(&SliceSource{Cycles: [][]string{{"a"}}}, done, nil, 5).Next(); ok || !errors.Is(err, ErrCancelled) {
		t.Fatalf("cancelled: ok %v, err %v", ok, err)
	}
}
