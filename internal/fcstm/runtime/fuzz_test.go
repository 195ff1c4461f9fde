package runtime_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

// FuzzCycle drives the testdata models with arbitrary event sequences and
// checks the cycle's contract: a failed cycle or a Delta changes nothing,
// a successful one ends on a stoppable leaf or ends the machine.
func FuzzCycle(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.fcstm"))
	var models []*model.Model
	for _, p := range paths {
		m, err := model.Load(p)
		if err != nil {
			f.Fatal(err)
		}
		models = append(models, m)
	}
	f.Add(byte(0), []byte{0, 1, 2, 3})
	f.Add(byte(1), []byte{255, 7, 7, 0, 9})
	f.Add(byte(3), []byte{1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, which byte, script []byte) {
		m := models[int(which)%len(models)]
		r, err := runtime.New(m, runtime.Options{})
		if err != nil {
			t.Fatal(err)
		}
		events := r.EventPaths()
		for _, b := range script {
			var in []string
			if k := int(b) % (len(events) + 2); k < len(events) {
				in = []string{events[k]}
			} else if k == len(events) {
				in = []string{"No.Such.Event"}
			}
			before, vars := r.State(), r.Values()
			c, err := r.Cycle(in)
			if err != nil || c.Delta {
				if r.State() != before || !slices.Equal(r.Values(), vars) {
					t.Fatalf("%v (delta %v) changed %s %v into %s %v", err, c.Delta, before, vars, r.State(), r.Values())
				}
				continue
			}
			if r.Ended() {
				continue
			}
			if s := m.StateByPath[r.State()]; s == nil || !s.Stoppable() {
				t.Fatalf("cycle %v ended on %q, not a stoppable leaf", in, r.State())
			}
		}
	})
}
