package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFCSTMExamplesFormatted: examples/ is in canonical form ("stateproof
// fmt -l examples/" prints nothing).
func TestFCSTMExamplesFormatted(t *testing.T) {
	for _, ext := range []string{".fcstm", ".fbmcq"} {
		for _, path := range repoFiles(t, ext) {
			if !strings.HasPrefix(filepath.ToSlash(path), "../../examples/") || strings.Contains(path, "broken") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Source(path, src)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if string(out) != string(src) {
				t.Errorf("%s is not formatted: run stateproof fmt -w %s", path, path)
			}
		}
	}
}
