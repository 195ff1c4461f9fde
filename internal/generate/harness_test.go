package generate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// The harness the targets' tests share: a model written for the test,
// loaded, generated and written out.

// writeModel writes src (FCSTM source) as dir/file and returns its path.
func writeModel(t *testing.T, dir, file, src string) string {
	t.Helper()
	path := filepath.Join(dir, file)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// generatePath loads the model at path, failing the test when it does
// not load, and generates it for target; the generation's error is the
// caller's to judge.
func generatePath(t *testing.T, path, target string, opts Options) (*model.Model, []File, error) {
	t.Helper()
	m, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(m, target, opts)
	return m, files, err
}

// mustGenerate is generatePath failing the test on a generation error.
func mustGenerate(t *testing.T, path, target string, opts Options) (*model.Model, []File) {
	t.Helper()
	m, files, err := generatePath(t, path, target, opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m, files
}

// generateAPI generates src, written as dir/api.fcstm, for target as the
// module api into dir/gen.
func generateAPI(t *testing.T, dir, src, target string, driver bool) []File {
	t.Helper()
	_, files := mustGenerate(t, writeModel(t, dir, "api.fcstm", src), target, Options{Name: "api", Driver: driver})
	writeFiles(t, filepath.Join(dir, "gen"), files)
	return files
}

func writeFiles(t *testing.T, dir string, files []File) {
	t.Helper()
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
}
