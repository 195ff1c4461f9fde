package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLocalPartitionsFCSTM: a partitioned search of an FCSTM model, over
// 2 and 3 worker processes, gives the one-process report byte for byte,
// with the same exit status, on every example, the generated families and
// a model whose cycles raise (raised locations cross processes too) and
// one with a dead end, with a cap that truncates the larger ones.
func TestLocalPartitionsFCSTM(t *testing.T) {
	models := fcstmScaleModels(t)
	raising := filepath.Join(t.TempDir(), "raising.fcstm")
	src := "def int x = 2;\ndef int y = 0;\nstate R { state A; [*] -> A;\n A -> A :: Tick effect { x = (x + 1) % 3; };\n A -> A :: Div effect { y = 10 / x; };\n}\n"
	if err := os.WriteFile(raising, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// a dead end in C, which the owners find by stepping their own states
	dead := filepath.Join(t.TempDir(), "dead.fcstm")
	src = "def int x = 0;\nstate R { state A; state B; state C; [*] -> A;\n A -> B :: Go;\n A -> A :: Tick effect { x = (x + 1) % 4; };\n B -> C :: Go;\n}\n"
	if err := os.WriteFile(dead, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	models = append(models, raising, dead)
	for _, model := range models {
		// small cap: a level costs round trips, and counter has one per state
		base := []string{"verify", model, "--json", "--max-states", "300"}
		want, _, wantCode := runBin(t, time.Minute, base...)
		if !strings.Contains(want, `"FCSTM-S1"`) {
			t.Fatalf("%s: no search in\n%s", model, want)
		}
		for _, n := range []int{2, 3} {
			got, errs, code := runBin(t, time.Minute, append(base, "--local-partitions", strconv.Itoa(n))...)
			if got != want || code != wantCode {
				t.Errorf("%s, %d local partitions: exit %d (want %d), report differs:\n%s\n%s", filepath.Base(model), n, code, wantCode, firstDiff(got, want), errs)
			}
		}
	}
}
