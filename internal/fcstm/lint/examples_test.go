package lint

import (
	"path/filepath"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/report"
)

// TestExamples: every model of examples/fcstm parses, constructs and
// verifies without any finding.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/fcstm/*.fcstm")
	lib, _ := filepath.Glob("../../../examples/fcstm/lib/*.fcstm")
	files = append(files, lib...)
	if len(files) < 9 {
		t.Fatalf("found %d FCSTM examples, want at least 8 models and a library unit", len(files))
	}
	for _, path := range files {
		res, err := Check(path, model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v, reason := res.Report.Verdict(); v != report.Pass {
			t.Errorf("%s: %s (%s): %s", path, v, reason, findings(res.Report))
		}
	}
}
