package generate

import (
	"fmt"
	"go/format"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// Options configures a generation.
type Options struct {
	// Name is the package (and module) name; derived from the model's
	// file name when empty.
	Name string
	// Driver adds a driver program and a run script that print the
	// stateproof/simulate/v1 document of a run (docs/generate.md).
	Driver bool
	// ModelName is the model's name as the driver's document reports
	// it; the model's file when empty.
	ModelName string
}

// File is one generated file: a path relative to the output directory.
type File struct {
	Path string
	Data []byte
	Exec bool // an executable script
}

// Write writes files below dir (their slash-separated paths made
// native), making the folders they need; a script is executable.
func Write(dir string, files []File) error {
	for _, f := range files {
		dst := filepath.Join(dir, filepath.FromSlash(f.Path))
		mode := os.FileMode(0o644)
		if f.Exec {
			mode = 0o755
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, f.Data, mode); err != nil {
			return err
		}
	}
	return nil
}

// Unsupported is a model feature the target cannot run exactly.
type Unsupported struct {
	Pos     model.Pos
	Feature string // a stable name, listed in docs/generate.md
	Message string
}

func (u *Unsupported) Error() string {
	if u.Pos.Line == 0 { // the whole model
		return fmt.Sprintf("%s: %s (unsupported by stateproof generate: %s; see docs/generate.md)", u.Pos.File, u.Message, u.Feature)
	}
	return fmt.Sprintf("%s:%d:%d: %s (unsupported by stateproof generate: %s; see docs/generate.md)", u.Pos.File, u.Pos.Line, u.Pos.Col, u.Message, u.Feature)
}

// Targets lists the supported targets.
func Targets() []string { return []string{"c", "go", "python", "typescript"} }

// Generate writes the code of m for target. It returns the files, sorted
// by path, or an *Unsupported error.
func Generate(m *model.Model, target string, opts Options) ([]File, error) {
	if opts.Name == "" {
		opts.Name = path.Base(m.File)
	}
	opts.Name = packageName(opts.Name)
	if opts.ModelName == "" {
		opts.ModelName = m.File
	}
	var files []File
	var err error
	switch target {
	case "go":
		files, err = goTarget(m, opts)
	case "c":
		files, err = cTarget(m, opts)
	case "python":
		files, err = pythonTarget(m, opts)
	case "typescript":
		files, err = typescriptTarget(m, opts)
	default:
		return nil, fmt.Errorf("unknown target %q (targets: c, go, python, typescript)", target)
	}
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// gofmt formats generated Go source; a failure is a bug of the generator.
func gofmt(name string, src []byte) ([]byte, error) {
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("internal error: generated %s does not parse: %v", name, err)
	}
	return out, nil
}
