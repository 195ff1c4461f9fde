package verify

import (
	"sync"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/progress"
)

// A run's searches report to Options.Progress, and the report does not
// depend on whether anyone listens.
func TestRunReportsProgress(t *testing.T) {
	res, err := jsonmodel.Decode([]byte(gen.Counter(50000)))
	if err != nil || !res.Valid() {
		t.Fatalf("%v %v", err, res.Errors)
	}
	opts := DefaultOptions()
	opts.MaxStates = 100000
	want, _ := Run(res, opts).JSON().MarshalJSON()
	var mu sync.Mutex
	tasks := map[string]int64{}
	opts.Progress = progress.Func(func(s progress.Snapshot) {
		mu.Lock()
		defer mu.Unlock()
		if s.Engine == progress.Search {
			tasks[s.Task] = max(tasks[s.Task], s.States)
		}
	})
	got, _ := Run(res, opts).JSON().MarshalJSON()
	if string(got) != string(want) {
		t.Error("the report changed with a progress reporter")
	}
	if _, ok := tasks["explore"]; !ok {
		t.Errorf("no snapshot of the exploration: %v", tasks)
	}
}
