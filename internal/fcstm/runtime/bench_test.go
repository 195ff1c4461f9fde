package runtime_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
)

// benchFixtures is a selection of the shared fixtures of every kind:
// plain transitions, aspects, combos, pseudo chains, validation with
// rejected candidates, hot starts, handlers, errors.
var benchFixtures = []string{
	"design_basic_simple_transition", "design_multi_layer_aspect_actions", "design_cross_hierarchy_transition_with_staged_guards",
	"combo_transition_trigger_priority_scope_alignment", "combo_transition_trigger_fence_prefix_guard_alignment",
	"design_pseudo_chain_multiple", "design_exit_to_parent_then_pseudo_guard", "post_child_exit_continuation_skips_unstable_candidates",
	"composite_initial_nested_entry_order_survives_deep_choice", "hot_start_with_aspect_actions",
	"abstract_hook_ref_context_reports_callsite_metadata", "scenario_traffic_signal_with_pedestrian_request_pedestrian",
	"scenario_elevator_door_control_normal", "expression_failure_transition_guard_raises_expression_error",
}

// BenchmarkCycle times one Cycle call on fixture models, replaying each
// fixture's cycles in a loop (a fresh runtime, untimed, when they run out).
func BenchmarkCycle(b *testing.B) {
	dir := fcstmtest.SharedCasesDir()
	if dir == "" {
		fcstmtest.SharedModels(b) // skips, or fails under CI
	}
	for _, id := range benchFixtures {
		b.Run(id, func(b *testing.B) {
			m, err := model.Load(filepath.Join(dir, id+".fcstm"))
			if err != nil {
				b.Fatal(err)
			}
			opts, cycles := benchInputs(b, filepath.Join(dir, id+".yaml"))
			var r *runtime.Runtime
			next := len(cycles)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if next == len(cycles) || r.Ended() {
					b.StopTimer()
					if r, err = runtime.New(m, opts); err != nil {
						b.Fatal(err)
					}
					next = 0
					b.StartTimer()
				}
				r.Cycle(cycles[next]) // errors are cycles too
				next++
			}
		})
	}
}

// benchInputs reads a fixture's hot start and its cycles, expanded.
func benchInputs(b *testing.B, path string) (runtime.Options, [][]string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var fx fixture
	if err := yaml.Unmarshal(raw, &fx); err != nil {
		b.Fatal(err)
	}
	var opts runtime.Options
	if fx.Initial != nil && fx.Initial.State != nil {
		opts.InitialState = *fx.Initial.State
		opts.InitialVars = map[string]expr.Value{}
		for k, v := range fx.Initial.Vars {
			opts.InitialVars[k] = yamlValue(v)
		}
	}
	var cycles [][]string
	for _, st := range fx.Steps {
		n := 1
		if st.CycleCount != nil {
			n = *st.CycleCount
		}
		evs, _ := st.Cycle.([]any)
		var list []string
		if s, ok := st.Cycle.(string); ok {
			list = []string{s}
		}
		for _, e := range evs {
			list = append(list, strings.TrimSpace(e.(string)))
		}
		for range n {
			cycles = append(cycles, list)
		}
	}
	if len(cycles) == 0 {
		cycles = [][]string{nil}
	}
	return opts, cycles
}
