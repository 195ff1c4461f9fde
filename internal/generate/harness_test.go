package generate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
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

// powVectors is the operands of a power test in a target's syntax: per x
// of xs, pair(x, y), y taken in turn from a list of exponents (every third
// a random integer from r). It writes Go's math.Pow of each to want, as
// bits, a line each ("nan" for a NaN, whose payload differs and is never
// seen).
func powVectors(r *rand.Rand, xs []float64, want *strings.Builder, pair func(x, y float64) string) string {
	ys := []float64{2, 3, -1, -2, 0.5, -0.5, 10, 63, -1074, 1100, math.Inf(1), math.Inf(-1)}
	var b strings.Builder
	for i, x := range xs {
		y := ys[i%len(ys)]
		if i%3 == 0 {
			y = float64(r.IntN(200) - 100)
		}
		b.WriteString(pair(x, y))
		if p := math.Pow(x, y); math.IsNaN(p) {
			want.WriteString("nan\n")
		} else {
			fmt.Fprintf(want, "%x\n", math.Float64bits(p))
		}
	}
	return b.String()
}

// sameLines fails the test at the first line of want that got differs in.
func sameLines(t *testing.T, got, want string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range w {
		if i >= len(g) || g[i] != w[i] {
			t.Fatalf("line %d: got %q, want %q", i+1, g[min(i, len(g)-1)], w[i])
		}
	}
}
