package progress

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestTickJSON(t *testing.T) {
	cases := []struct {
		tick Tick
		want map[string]any
	}{
		{Tick{Snapshot: Snapshot{Engine: Search, Task: "explore \"x\"", States: 1200, Queue: 30, Depth: 7}, Elapsed: 2500 * time.Millisecond, Rate: 480.4},
			map[string]any{"kind": "progress", "elapsed_ms": 2500.0, "engine": "search", "task": "explore \"x\"", "states": 1200.0, "states_per_s": 480.0, "depth": 7.0, "queue": 30.0}},
		{Tick{Snapshot: Snapshot{Engine: Search, States: 5}, Rate: -1},
			map[string]any{"kind": "progress", "elapsed_ms": 0.0, "engine": "search", "states": 5.0, "depth": 0.0, "queue": 0.0}},
		{Tick{Snapshot: Snapshot{Engine: BMC, Query: 2, Queries: 3, Bound: 40, MaxBound: 160, Stage: "solving"}, Elapsed: time.Second, Rate: -1},
			map[string]any{"kind": "progress", "elapsed_ms": 1000.0, "engine": "bmc", "query": 2.0, "queries": 3.0, "bound": 40.0, "max_bound": 160.0, "stage": "solving"}},
		{Tick{Snapshot: Snapshot{Engine: Prove, Task: "round 1", Layer: "spacer", Proved: 1, Properties: 4}, Rate: -1},
			map[string]any{"kind": "progress", "elapsed_ms": 0.0, "engine": "prove", "task": "round 1", "layer": "spacer", "proved": 1.0, "violated": 0.0, "properties": 4.0}},
		{Tick{Snapshot: Snapshot{Engine: Simulate, Cycle: 10, Cycles: 99}, Rate: -1},
			map[string]any{"kind": "progress", "elapsed_ms": 0.0, "engine": "simulate", "cycle": 10.0, "cycles": 99.0}},
	}
	for _, c := range cases {
		line := c.tick.JSON()
		var got map[string]any
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %v\nwant %v", line, got, c.want)
		}
		if !strings.HasPrefix(string(line), `{"kind":"progress","elapsed_ms":`) {
			t.Errorf("%s: kind and elapsed_ms come first", line)
		}
	}
}

func TestTickText(t *testing.T) {
	cases := []struct {
		tick Tick
		want string
	}{
		{Tick{Snapshot: Snapshot{Engine: Search, Task: "explore", States: 1200, Queue: 30, Depth: 7}, Elapsed: 2500 * time.Millisecond, Rate: 480},
			"2.5 s search explore: 1200 states stored, 480 states/s, depth 7, queue 30"},
		{Tick{Snapshot: Snapshot{Engine: BMC, Query: 1, Queries: 1, Bound: 4, MaxBound: 9, Stage: "encoding"}, Rate: -1},
			"0.0 s bmc: bound 4 of 9, encoding"},
		{Tick{Snapshot: Snapshot{Engine: Prove, Layer: "kind", Proved: 2, Violated: 1, Properties: 5}, Rate: -1},
			"0.0 s prove: layer kind, 2 of 5 proved, 1 violated"},
	}
	for _, c := range cases {
		if got := c.tick.Text(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

func TestWatchTicks(t *testing.T) {
	ticks := make(chan Tick, 100)
	w := NewWatch(time.Millisecond, time.Millisecond, func(t Tick) { ticks <- t })
	time.Sleep(20 * time.Millisecond) // ticks with no snapshot yet are skipped
	if len(ticks) != 0 {
		t.Fatalf("%d ticks before any snapshot", len(ticks))
	}
	w.Report(Snapshot{Engine: Search, Task: "explore", States: 10})
	first := <-ticks
	w.Report(Snapshot{Engine: Search, Task: "explore", States: 1000})
	var second Tick
	for second = <-ticks; second.States != 1000; second = <-ticks {
	}
	w.Stop()
	n := len(ticks)
	time.Sleep(10 * time.Millisecond)
	if len(ticks) != n {
		t.Fatal("a tick after Stop")
	}
	if first.States != 10 || first.Rate <= 0 || second.Rate <= 0 || second.Elapsed < first.Elapsed {
		t.Fatalf("ticks %+v then %+v", first, second)
	}
	if r := rate(Snapshot{Engine: Search, Task: "a", States: 5}, time.Second, Snapshot{Engine: Search, Task: "b", States: 9}, 2*time.Second); r >= 0 {
		t.Errorf("rate across tasks = %v, want unknown", r)
	}
	if r := rate(Snapshot{Engine: Search, Task: "a", States: 5}, time.Second, Snapshot{Engine: Search, Task: "a", States: 105}, 2*time.Second); r != 100 {
		t.Errorf("rate = %v, want 100", r)
	}
}
