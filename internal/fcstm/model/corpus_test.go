package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
)

// TestBuildSharedCorpus constructs every model of the shared corpus; the
// only ones that may fail are those whose YAML expects the constructor to
// raise without hot-start inputs; they must instead carry the reason on a
// variable (InitErr), which the runtime raises.
func TestBuildSharedCorpus(t *testing.T) {
	built := 0
	for _, path := range fcstmtest.SharedModels(t) {
		yaml, err := os.ReadFile(strings.TrimSuffix(path, ".fcstm") + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		wantFail := constructionFails(string(yaml))
		m, err := Load(path)
		if err == nil && wantFail {
			// The failure is the runtime constructor's: a default
			// initialiser without a value of its type.
			for _, v := range m.Vars {
				if v.InitErr != nil {
					wantFail = false
				}
			}
		}
		switch {
		case wantFail && err == nil:
			t.Errorf("%s: constructed, but the fixture expects a construction failure", filepath.Base(path))
		case !wantFail && err != nil:
			t.Errorf("%v", err)
		case err == nil:
			built++
			if m.Root == nil || m.StateByPath[m.Root.Path] != m.Root {
				t.Errorf("%s: root not registered", path)
			}
		}
	}
	t.Logf("%d models constructed", built)
}

// constructionFails reports whether a fixture expects the constructor to
// raise with no hot-start inputs (initial.state and initial.vars null).
func constructionFails(yaml string) bool {
	i := strings.Index(yaml, "\ninitial:\n")
	if i < 0 {
		return false
	}
	block := yaml[i:]
	if j := strings.Index(block, "\nsteps:"); j >= 0 {
		block = block[:j]
	}
	return strings.Contains(block, "raises:") && strings.Contains(block, "state: null") && strings.Contains(block, "vars: null")
}
