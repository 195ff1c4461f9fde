package gen

import (
	"fmt"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

func fcstmRuntime(t *testing.T, src string) *runtime.Runtime {
	t.Helper()
	m, err := model.Parse("gen.fcstm", src, model.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	r, err := runtime.New(m, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The FCSTM counter counts to n on empty cycles and then rests in Done.
func TestCounterFCSTM(t *testing.T) {
	r := fcstmRuntime(t, CounterFCSTM(5))
	for range 7 {
		if _, err := r.Cycle(nil); err != nil {
			t.Fatal(err)
		}
	}
	if got, c := r.State(), r.Vars()["c"]; got != "Counter.Done" || fmt.Sprint(c) != "5" {
		t.Errorf("after 7 cycles: %s with c = %v, want Counter.Done with 5", got, c)
	}
}

// Each FCSTM toggle's event flips its switch and no other.
func TestTogglesFCSTM(t *testing.T) {
	r := fcstmRuntime(t, TogglesFCSTM(3))
	// The first cycle enters On; the next ones flip.
	for _, ev := range []string{"", "Toggles.On.Flip1", "Toggles.On.Flip2", "Toggles.On.Flip1"} {
		var in []string
		if ev != "" {
			in = []string{ev}
		}
		if _, err := r.Cycle(in); err != nil {
			t.Fatal(err)
		}
	}
	v := r.Vars()
	if got := fmt.Sprint(v["b0"], v["b1"], v["b2"]); got != "0 0 1" {
		t.Errorf("switches %s, want 0 0 1", got)
	}
}
