package parser

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
)

// TestParseSharedCorpus parses every model of the shared corpus.
func TestParseSharedCorpus(t *testing.T) {
	for _, path := range fcstmtest.SharedModels(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(filepath.Base(path), string(src)); err != nil {
			t.Errorf("%v", err)
		}
	}
}
