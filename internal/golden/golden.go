// Package golden is the test support for golden files: compare output with
// testdata/golden/NAME, or rewrite the file when the test runs with
// -update (each test package declares its own -update flag and passes its
// value). Rewritten files are reviewed in the diff, never blessed blindly.
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Compare checks got against testdata/golden/name, or writes it there when
// update is true.
func Compare(t testing.TB, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the golden file; review the change and rerun with -update\n--- got ---\n%s", name, got)
	}
}
