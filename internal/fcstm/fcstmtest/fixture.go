package fcstmtest

import (
	"os"
	"path/filepath"
	"testing"
)

// SharedFixture returns the path of rel below the shared fixtures
// directory ("fixtures/<rel>" under $STATEPROOF_SHARED, or under a
// "shared" directory beside or above the working directory). It skips
// the test when the file is absent, and fails it when CI=true.
func SharedFixture(t testing.TB, rel string) string {
	t.Helper()
	var cands []string
	if d := os.Getenv("STATEPROOF_SHARED"); d != "" {
		cands = append(cands, filepath.Join(d, "fixtures", rel))
	} else if dir, err := os.Getwd(); err == nil {
		for {
			cands = append(cands, filepath.Join(dir, "shared", "fixtures", rel))
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	for _, c := range cands {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("the shared fixture shared/fixtures/%s is absent; it is required under CI=true", rel)
	}
	t.Skipf("the shared fixture shared/fixtures/%s is absent; skipping", rel)
	return ""
}
