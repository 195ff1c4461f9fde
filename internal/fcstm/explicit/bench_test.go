package explicit

import (
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	jsonruntime "github.com/stateproof/stateproof/internal/runtime"
)

// benchSearch reports the states per second of a plain search of mc.
func benchSearch(b *testing.B, mc concrete.Machine) {
	states := 0
	for b.Loop() {
		states = explore.Explore(mc, 1<<30).Len()
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(states), "states")
}

func fcstmMachine(b *testing.B, src string) *Machine {
	m, err := model.Parse("gen.fcstm", src, model.Options{})
	if err != nil {
		b.Fatal(err)
	}
	mc, err := New(m)
	if err != nil {
		b.Fatal(err)
	}
	return mc
}

// The same space in both languages (gen toggles 14 and gen toggles 14
// --format fcstm): issue 39 asks the FCSTM search for at least half the
// JSON search's states per second.
func BenchmarkTogglesFCSTM14(b *testing.B) { benchSearch(b, fcstmMachine(b, gen.TogglesFCSTM(14))) }

func BenchmarkTogglesJSON14(b *testing.B) {
	res, err := jsonmodel.Decode([]byte(gen.Toggles(14)))
	if err != nil || !res.Valid() {
		b.Fatal(err, res.Errors)
	}
	benchSearch(b, jsonruntime.Compile(res.Model))
}
