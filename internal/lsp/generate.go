package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/generate"
)

// generateArgs is the second argument of stateproof.generate: the flags
// of stateproof generate (docs/lsp.md#generate).
type generateArgs struct {
	Target string `json:"target"`
	OutDir string `json:"outDir"`
	Name   string `json:"name"`
	Driver bool   `json:"driver"`
}

// generated is stateproof.generate's answer: the directory written and
// the files in it, slash-separated and relative to it.
type generated struct {
	Dir   string   `json:"dir"`
	Files []string `json:"files"`
}

// generateCode writes the code of the model d into a directory of the
// workspace, through generate.FileModel, the function stateproof
// generate and the MCP tool call, so that the three write the same
// bytes. The model is read from its saved file, as the command line
// reads it: a document with unsaved changes is refused rather than
// generated from a text the file does not hold.
func (s *server) generateCode(ctx context.Context, d *document, raw []json.RawMessage) (any, error) {
	var a generateArgs
	if len(raw) > 1 {
		if err := json.Unmarshal(raw[1], &a); err != nil {
			return nil, errorf(codeInvalidParams, "%s: the second argument must be {target, outDir, name, driver}: %v", cmdGenerate, err)
		}
	}
	targets := strings.Join(generate.Targets(), ", ")
	switch {
	case d.lang != langFCSTM && d.lang != langJSON:
		return nil, errorf(codeRequestFailed, "generate takes a model (.fcstm or .json)")
	case a.Target == "":
		return nil, errorf(codeInvalidParams, "generate: the target is required (targets: %s; docs/lsp.md#generate)", targets)
	case !slices.Contains(generate.Targets(), a.Target):
		return nil, errorf(codeInvalidParams, "generate: %q is not a target (targets: %s)", a.Target, targets)
	case !strings.HasPrefix(d.uri, "file:"):
		return nil, errorf(codeRequestFailed, "generate: %s is not a file; save it in the workspace first", d.uri)
	}
	rd := s.ws.reader()
	saved, err := rd.ReadFile(d.path)
	if err != nil {
		return nil, errorf(codeRequestFailed, "generate: %v", err)
	}
	if string(saved) != d.text.src {
		return nil, errorf(codeRequestFailed, "generate: %s has unsaved changes; save it first, so that the code is generated from the model the file holds", d.path)
	}
	root, rel, err := s.ws.outDir(d.path, a)
	if err != nil {
		return nil, errorf(codeInvalidParams, "generate: %v", err)
	}
	files, err := generate.FileModel(rd, d.path, a.Target, generate.Options{Name: a.Name, Driver: a.Driver, ModelName: d.path})
	if err != nil {
		return nil, errorf(codeRequestFailed, "%v", err) // located: file:line:col
	}
	if err := ctx.Err(); err != nil {
		return nil, err // nothing written
	}
	out := filepath.Join(root, rel)
	if err := writeIn(root, rel, files); err != nil {
		return nil, errorf(codeRequestFailed, "generate: writing %s: %v", out, err)
	}
	res := generated{Dir: out}
	for _, f := range files {
		res.Files = append(res.Files, f.Path)
	}
	s.conn.notify("window/showMessage", map[string]any{"type": 3,
		"message": fmt.Sprintf("stateproof: generated %s: %s", out, strings.Join(res.Files, ", "))})
	return res, nil
}

// outDir resolves the output directory of a generation: a.OutDir, an
// absolute path or one relative to the model's directory, by default the
// sibling directory MODEL-TARGET (door.fcstm, go: door-go). It must lie
// inside a workspace folder (the model's own directory when the client
// named none), returned as that folder and the path inside it, so that
// the writes can be confined to the folder.
func (w *workspace) outDir(model string, a generateArgs) (root, rel string, err error) {
	dir := filepath.Dir(model)
	out := a.OutDir
	if out == "" {
		out = strings.TrimSuffix(filepath.Base(model), filepath.Ext(model)) + "-" + a.Target
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(dir, out)
	}
	w.mu.Lock()
	folders := append([]string(nil), w.folders...)
	w.mu.Unlock()
	if len(folders) == 0 {
		folders = []string{dir}
	}
	for _, f := range folders {
		f, ferr := filepath.Abs(f)
		if ferr != nil {
			continue
		}
		if r, rerr := filepath.Rel(f, out); rerr == nil && filepath.IsLocal(r) {
			return f, r, nil
		}
	}
	return "", "", fmt.Errorf("the output directory %s is outside the workspace (%s); generate writes only inside it", out, strings.Join(folders, ", "))
}

// writeIn writes files below dir inside root as generate.Write does
// (folders as needed, scripts executable, existing files overwritten),
// through os.Root, so that a symbolic link cannot lead a write out of
// the workspace.
func writeIn(root, dir string, files []generate.File) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, f := range files {
		dst := filepath.Join(dir, filepath.FromSlash(f.Path))
		mode := fs.FileMode(0o644)
		if f.Exec {
			mode = 0o755
		}
		if err := r.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := r.WriteFile(dst, f.Data, mode); err != nil {
			return err
		}
	}
	return nil
}
