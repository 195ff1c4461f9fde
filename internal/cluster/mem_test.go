package cluster

import (
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"
)

// wideCounter is a counter to n (n+2 states, as many levels) with width
// more unbounded integers, each one word of every stored state.
func wideCounter(n, width int) []byte {
	vars := []string{fmt.Sprintf(`{"name":"c","kind":"integer","init":0,"min":0,"max":%d}`, n)}
	for i := range width {
		vars = append(vars, fmt.Sprintf(`{"name":"v%d","kind":"integer","init":%d}`, i, i))
	}
	return []byte(fmt.Sprintf(`{"schemaVersion":1,"init":"RUN","states":[{"id":"RUN"},{"id":"DONE","terminal":true}],
		"transitions":[{"from":"RUN","event":"tick","to":"RUN","guard":{"variable":"c","op":"<","value":%d},"updates":[{"variable":"c","op":"inc"}]},
		{"from":"RUN","event":"tick","to":"DONE"}],"variables":[%s]}`, n, strings.Join(vars, ",")))
}

// A partitioned search of a wide model takes memory in proportion to the
// states it stores (issue 38 item 8.3): each worker made a store per
// level, and a store allocated a whole chunk (up to 2^20 words, zeroed)
// for its first state, so a run of a few hundred levels allocated
// gigabytes to store megabytes.
func TestWorkerStoresSizedByWhatIsStored(t *testing.T) {
	const levels, width = 200, 3000
	src := wideCounter(levels, width)
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	res, errs := cluster(t, src, 2, 10000, nil)
	goruntime.ReadMemStats(&after)
	if res == nil {
		t.Fatalf("no graph: %v", errs)
	}
	if got := res.Graph.Len(); got != levels+2 {
		t.Fatalf("%d states, want %d", got, levels+2)
	}
	stored := uint64(res.Graph.Len()) * uint64(res.Graph.Width()) * 8
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d MiB for %d MiB of states", alloc>>20, stored>>20)
	if alloc > 40*stored {
		t.Errorf("allocated %d MiB to store %d MiB of states", alloc>>20, stored>>20)
	}
}
