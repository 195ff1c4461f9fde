package verify

import (
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// A monitor's steady values are what its Step keeps, without a flag, on
// every edge of the model: the explorer skips Step on them (see
// explore.Monitor), so a wrong claim would change what verify reports.
func TestSteadyValuesAreKept(t *testing.T) {
	models := map[string]string{"counter": gen.Counter(40), "probes": gen.Probes(4)}
	for name, src := range models {
		res, err := jsonmodel.Decode([]byte(src))
		if err != nil || !res.Valid() {
			t.Fatal(name, err)
		}
		e := newEnv(res.Model, Options{MaxStates: 1 << 16})
		g := explore.Explore(e.mc, 1<<16)
		steady := 0
		for k, mon := range e.riders().monitors {
			for _, v := range mon.Steady {
				steady++
				for i := range g.Len() {
					node := g.Runtime(i, nil)
					for tr := range e.mc.Model.Transitions {
						if got, flag := mon.Step(g, i, tr, node, v); got != v || flag >= 0 {
							t.Errorf("%s: monitor %d at steady %d, transition %d into node %d: %d, flag %d", name, k, v, tr, i, got, flag)
						}
					}
				}
			}
		}
		if name == "counter" && steady == 0 {
			t.Errorf("counter: no monitor declares a steady value; its event-before-state monitor should")
		}
	}
}
