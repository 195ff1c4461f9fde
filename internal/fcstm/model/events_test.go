package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
)

// TestSharedCorpusEventPaths cross-checks event scoping against the
// shared corpus: every full event path a fixture sends (Root.….Event) must
// be an event of the constructed model.
func TestSharedCorpusEventPaths(t *testing.T) {
	checked := 0
	for _, path := range fcstmtest.SharedModels(t) {
		data, err := os.ReadFile(strings.TrimSuffix(path, ".fcstm") + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(path)
		if err != nil {
			continue // TestBuildSharedCorpus reports it
		}
		for _, ev := range cycleEvents(string(data)) {
			if !strings.HasPrefix(ev, m.Root.Name+".") {
				continue // relative forms are resolved by the runtime
			}
			checked++
			if m.EventByPath[ev] == nil {
				t.Errorf("%s: the fixture sends %s, which the model does not have", filepath.Base(path), ev)
			}
		}
	}
	t.Logf("%d full event paths checked", checked)
	if checked < 50 {
		t.Errorf("only %d full event paths checked", checked)
	}
}

// cycleEvents extracts the event paths of "cycle:" inputs, in both the
// inline ("cycle: A" / "cycle: [A, B]") and the block list form.
func cycleEvents(yaml string) []string {
	var out []string
	lines := strings.Split(yaml, "\n")
	for i, line := range lines {
		trim := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		v, ok := strings.CutPrefix(trim, "cycle:")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if v == "" { // block list below
			for _, next := range lines[i+1:] {
				item, ok := strings.CutPrefix(strings.TrimSpace(next), "- ")
				if !ok || strings.Contains(item, ":") {
					break
				}
				out = append(out, strings.TrimSpace(item))
			}
			continue
		}
		for _, e := range strings.Split(strings.Trim(v, "[]"), ",") {
			if e = strings.TrimSpace(e); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}
