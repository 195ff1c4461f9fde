package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/generate"
)

// GenerateInput is the input of the generate tool: stateproof generate's
// arguments, with the output directory optional.
type GenerateInput struct {
	Model  any    `json:"model,omitempty" jsonschema:"the model inline: FCSTM source text as a string, or a JSON model (schema v1) as an object"`
	Path   string `json:"path,omitempty" jsonschema:"path of a .fcstm file or of a JSON model file, instead of model"`
	Target string `json:"target" jsonschema:"the target language: c, go, python or typescript"`
	Name   string `json:"name,omitempty" jsonschema:"the package or module name (default: from the model's file name)"`
	Driver bool   `json:"driver,omitempty" jsonschema:"also generate a driver program and a run script printing the simulate report of a run"`
	OutDir string `json:"outDir,omitempty" jsonschema:"also write the files into this directory under the served root; it must not exist yet (nothing is overwritten)"`
}

// GenerateOutput is the result of the generate tool.
type GenerateOutput struct {
	Files      map[string]string `json:"files" jsonschema:"the generated files: path relative to the output directory (slash-separated) -> content"`
	Executable []string          `json:"executable,omitempty" jsonschema:"the files that are executable scripts (DIR/run)"`
	Written    string            `json:"written,omitempty" jsonschema:"the directory the files were written into, when outDir was given"`
}

var generateTool = &mcp.Tool{
	Name:        "generate",
	Description: "Generate code that runs a model cycle for cycle exactly as stateproof's runtime does, as `stateproof generate` (docs/generate.md): target go (one package), python (one module), typescript (one module) or c (NAME.h and NAME.c); an FCSTM model (a .fcstm path, or its source text in model) or a JSON model (a path, or the object in model; every target). With driver, also a driver and a run script whose output is the simulate report of a run. Returns the files by path; nothing is written unless outDir is given, a new directory under the served root. A model that does not load, or that the target cannot run exactly (e.g. a float math function: unsupported by stateproof generate: float-function), is a tool error located at file:line:col.",
	Annotations: writingAnnotations(),
}

// writingAnnotations are generate's: it writes with outDir, so it is not
// read-only, but it only creates a new directory, so it destroys nothing
// (and a repeated call finds the directory there and writes nothing).
func writingAnnotations() *mcp.ToolAnnotations {
	a := annotations()
	a.ReadOnlyHint = false
	destructive := false
	a.DestructiveHint = &destructive
	return a
}

func (s *server) generateHandler(ctx context.Context, _ *mcp.CallToolRequest, in GenerateInput) (*mcp.CallToolResult, *GenerateOutput, error) {
	targets := strings.Join(generate.Targets(), ", ")
	switch {
	case in.Target == "":
		return nil, nil, fmt.Errorf("target is required (targets: %s)", targets)
	case !slices.Contains(generate.Targets(), in.Target):
		return nil, nil, fmt.Errorf("target %q is not a target (targets: %s)", in.Target, targets)
	}
	if in.OutDir != "" {
		if err := s.checkOutDir(in.OutDir); err != nil {
			return nil, nil, err
		}
	}
	opts := generate.Options{Name: in.Name, Driver: in.Driver}
	var files []generate.File
	var err error
	switch {
	case in.Model != nil && in.Path != "":
		return nil, nil, fmt.Errorf("give the model inline or by path, not both")
	case in.Path != "":
		files, err = generate.FileModel(s.cfg.Files, in.Path, in.Target, opts)
	case in.Model != nil:
		files, err = inlineGenerate(s, in, opts)
	default:
		return nil, nil, fmt.Errorf("no model: give `model` (FCSTM text or a JSON model) or `path`")
	}
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	out := &GenerateOutput{Files: make(map[string]string, len(files))}
	for _, f := range files {
		out.Files[f.Path] = string(f.Data)
		if f.Exec {
			out.Executable = append(out.Executable, f.Path)
		}
	}
	if in.OutDir != "" {
		if err := s.writeFiles(in.OutDir, files); err != nil {
			return nil, nil, err
		}
		out.Written = in.OutDir
	}
	return nil, out, nil
}

// inlineGenerate generates the code of an inline model: FCSTM source text
// as a string, a JSON model as an object.
func inlineGenerate(s *server, in GenerateInput, opts generate.Options) ([]generate.File, error) {
	const name = "<inline model>"
	if opts.Name == "" {
		opts.Name = "model" // "<inline model>" makes no package name
	}
	if src, ok := in.Model.(string); ok {
		return generate.SourceModel(s.cfg.Files, name, []byte(src), true, in.Target, opts)
	}
	data, err := json.Marshal(in.Model)
	if err != nil {
		return nil, err
	}
	return generate.SourceModel(s.cfg.Files, name, data, false, in.Target, opts)
}

// checkOutDir refuses an output directory the tool must not write: one
// outside the served root (absolute, or leaving it by ".."), or one that
// exists, so that no file of the user's is ever overwritten. Symbolic
// links are left to os.Root, which refuses any that leads out.
func (s *server) checkOutDir(dir string) error {
	root := s.cfg.Files.Root
	switch {
	case root == nil:
		return fmt.Errorf("outDir: this server has no root directory to write under")
	case !filepath.IsLocal(dir):
		return fmt.Errorf("outDir %q is not a relative path inside the served root", dir)
	}
	_, err := root.Lstat(dir)
	switch {
	case err == nil:
		return fmt.Errorf("outDir %s exists: generate writes only into a new directory, and overwrites nothing", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("outDir %s: %w", dir, err)
	}
	return nil
}

// writeFiles writes files into the new directory dir under the served
// root. os.Root keeps every write inside it; creating dir with Mkdir and
// each file with O_EXCL makes "new" hold even if something appeared
// since checkOutDir looked.
func (s *server) writeFiles(dir string, files []generate.File) error {
	root := s.cfg.Files.Root
	if err := root.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("outDir: %w", err)
	}
	if err := root.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("outDir: %w", err)
	}
	for _, f := range files {
		dst := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := root.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("outDir: %w", err)
		}
		mode := fs.FileMode(0o644)
		if f.Exec {
			mode = 0o755
		}
		w, err := root.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return fmt.Errorf("outDir: %w", err)
		}
		_, err = w.Write(f.Data)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("outDir: %w", err)
		}
	}
	return nil
}
