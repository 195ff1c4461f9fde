// Package reach explores an FCSTM model on its runtime, breadth-first
// over every subset of the events, for the differential tests of the
// engines that reason about the model symbolically (bmc, prove).
package reach

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

// Config is a runtime configuration between cycles and the least depth
// (number of cycles) it is reached at. State is "" before the cold start
// has entered anything and Ended after the machine ended.
type Config struct {
	State string
	Vars  map[string]expr.Value
	Depth int
}

// Ended is the State of a configuration after the machine ended.
const Ended = "$ended"

// Explore runs the runtime from its cold start over every subset of the
// events for depth cycles and returns every configuration reached, each
// once, the cold start first. An error cycle has no successor; a delta
// cycle leaves the configuration as it was.
func Explore(m *model.Model, depth int) ([]Config, error) {
	return explore(m, depth, func(int) {})
}

// FirstRaise is the least number of cycles after which some run of the
// runtime (over every subset of the events) raises a runtime error, and
// whether one does within depth cycles.
func FirstRaise(m *model.Model, depth int) (int, bool, error) {
	first := 0
	_, err := explore(m, depth, func(d int) {
		if first == 0 {
			first = d
		}
	})
	return first, first > 0, err
}

// explore is Explore, calling raised with the cycle number of every
// cycle that raises.
func explore(m *model.Model, depth int, raised func(cycle int)) ([]Config, error) {
	type key struct{ state, vars string }
	keyOf := func(r *runtime.Runtime) key {
		if r.Ended() {
			return key{state: Ended}
		}
		return key{r.State(), fmt.Sprint(r.Values())}
	}
	start, err := runtime.New(m, runtime.Options{})
	if err != nil {
		return nil, err
	}
	out := []Config{{Vars: start.Vars()}}
	seen := map[key]bool{{}: true}
	level := []int{0}
	for d := 1; d <= depth; d++ {
		var next []int
		for _, i := range level {
			c := out[i]
			if c.State == Ended {
				continue
			}
			for mask := 0; mask < 1<<len(m.Events); mask++ {
				r, err := resume(m, c)
				if err != nil {
					return nil, fmt.Errorf("runtime at %s %v: %w", c.State, c.Vars, err)
				}
				var in []string
				for k, e := range m.Events {
					if mask&(1<<k) != 0 {
						in = append(in, e.Path)
					}
				}
				cyc, err := r.Cycle(in)
				if err != nil {
					raised(d)
				}
				if err != nil || cyc.Delta {
					continue // an error cycle, or nothing happened
				}
				k := keyOf(r)
				if seen[k] {
					continue
				}
				seen[k] = true
				nc := Config{State: k.state, Depth: d}
				if k.state != Ended {
					nc.Vars = r.Vars()
				}
				out = append(out, nc)
				next = append(next, len(out)-1)
			}
		}
		level = next
	}
	return out, nil
}

// resume is a runtime in configuration c: the cold start, or a hot start.
func resume(m *model.Model, c Config) (*runtime.Runtime, error) {
	if c.State == "" {
		return runtime.New(m, runtime.Options{})
	}
	return runtime.New(m, runtime.Options{InitialState: c.State, InitialVars: c.Vars})
}
