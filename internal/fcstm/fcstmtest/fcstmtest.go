// Package fcstmtest finds the shared pyfcstm semantic fixture corpus for
// the FCSTM packages' tests. The corpus is data from another project: it
// is read where it lies (a "shared/fixtures" directory beside or above the
// repository, or $STATEPROOF_SHARED) and never copied into the repository.
package fcstmtest

import (
	"os"
	"path/filepath"
	"testing"
)

// corpus is the corpus directory below the shared directory.
const corpus = "fixtures/pyfcstm-semantics/cases"

// SharedCasesDir returns the directory of the shared corpus, or "" when it
// cannot be found.
func SharedCasesDir() string {
	if d := os.Getenv("STATEPROOF_SHARED"); d != "" {
		return filepath.Join(d, corpus)
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		cand := filepath.Join(dir, "shared", corpus)
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// SharedModels returns the .fcstm files of the shared corpus. It skips
// the test when the corpus is absent, and fails it when CI=true.
func SharedModels(t testing.TB) []string {
	t.Helper()
	dir := SharedCasesDir()
	var files []string
	if dir != "" {
		files, _ = filepath.Glob(filepath.Join(dir, "*.fcstm"))
	}
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared FCSTM fixture corpus (shared/%s) is absent; it is required under CI=true", corpus)
		}
		t.Skipf("the shared FCSTM fixture corpus (shared/%s) is absent; skipping", corpus)
	}
	return files
}
