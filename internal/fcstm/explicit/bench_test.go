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

func BenchmarkTogglesJSON14(b *testing.B) { benchSearch(b, jsonMachine(b, gen.Toggles(14))) }

// gen counter 100000 in both languages: one guarded cycle per state.
func BenchmarkCounterFCSTM100k(b *testing.B) {
	benchSearch(b, fcstmMachine(b, gen.CounterFCSTM(100000)))
}

func BenchmarkCounterJSON100k(b *testing.B) { benchSearch(b, jsonMachine(b, gen.Counter(100000))) }

func jsonMachine(b *testing.B, src string) concrete.Machine {
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		b.Fatal(err, res.Errors)
	}
	return jsonruntime.Compile(res.Model)
}

// togglesState returns the machine of toggles 14 and the state after the first
// cycle of toggles 14 (every event readable: 15 cycles per call).
func togglesState(tb testing.TB) (*Machine, []int64) {
	m, err := model.Parse("gen.fcstm", gen.TogglesFCSTM(14), model.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	mc, err := New(m)
	if err != nil {
		tb.Fatal(err)
	}
	var buf concrete.Buffer
	outs := mc.Successors(mc.Initial(make([]int64, mc.Width())), &buf)
	if len(outs) != 1 {
		tb.Fatalf("the cold start has %d successors, want 1", len(outs))
	}
	return mc, append([]int64(nil), outs[0].Next...)
}

// A search steps every state on every input: once its scratch has grown,
// stepping allocates nothing (issue 39: a cycle that allocates cannot
// keep up with the JSON search).
func TestSuccessorsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under the race detector")
	}
	mc, src := togglesState(t)
	var buf concrete.Buffer
	if n := len(mc.Successors(src, &buf)); n != 15 {
		t.Fatalf("%d successors, want 15 (the empty cycle and one per event)", n)
	}
	if allocs := testing.AllocsPerRun(100, func() { mc.Successors(src, &buf) }); allocs != 0 {
		t.Errorf("Successors allocates %v times per call, want 0", allocs)
	}
}

// BenchmarkSuccessors times the 15 cycles out of one toggles state.
func BenchmarkSuccessors(b *testing.B) {
	mc, src := togglesState(b)
	var buf concrete.Buffer
	b.ReportAllocs()
	for b.Loop() {
		mc.Successors(src, &buf)
	}
}

// BenchmarkCounterSuccessors times one cycle out of each of 1000 states
// of counter 100000 in turn: a state per cycle, as the counter search.
func BenchmarkCounterSuccessors(b *testing.B) {
	mc := fcstmMachine(b, gen.CounterFCSTM(100000))
	var buf concrete.Buffer
	states := [][]int64{mc.Initial(make([]int64, mc.Width()))}
	for len(states) < 1000 {
		outs := mc.Successors(states[len(states)-1], &buf)
		states = append(states, append([]int64(nil), outs[0].Next...))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		mc.Successors(states[i%len(states)], &buf)
		i++
	}
}
