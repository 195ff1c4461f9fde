package model

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// TestGoldenDumps constructs the models of testdata/ and compares their
// Dump with the .golden file next to each (regenerate with -update and
// review the diff).
func TestGoldenDumps(t *testing.T) {
	files := []string{"testdata/forced.fcstm", "testdata/combos.fcstm", "testdata/refs.fcstm", "testdata/import/host.fcstm"}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			got := Dump(m)
			golden := strings.TrimSuffix(path, ".fcstm") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Dump(%s) differs from %s:\n%s", path, golden, got)
			}
		})
	}
}
