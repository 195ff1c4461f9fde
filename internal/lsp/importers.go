package lsp

import (
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// maxWorkspaceFiles bounds the walk of the workspace folders for the
// files that import a unit, so that a rename in a huge tree still answers.
const maxWorkspaceFiles = 2000

// initParams are the parts of initialize the server uses: the folders
// whose FCSTM files may import the model being edited.
type initParams struct {
	RootURI          *string `json:"rootUri"`
	RootPath         *string `json:"rootPath"`
	WorkspaceFolders []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
}

// folders returns the directories named by initialize.
func (p initParams) folders() []string {
	var out []string
	for _, f := range p.WorkspaceFolders {
		out = append(out, uriPath(f.URI))
	}
	if len(out) == 0 && p.RootURI != nil && *p.RootURI != "" {
		out = append(out, uriPath(*p.RootURI))
	}
	if len(out) == 0 && p.RootPath != nil && *p.RootPath != "" {
		out = append(out, *p.RootPath)
	}
	return out
}

func (w *workspace) setFolders(params json.RawMessage) {
	var p initParams
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return
	}
	w.mu.Lock()
	w.folders = p.folders()
	w.mu.Unlock()
}

// changeFolders applies workspace/didChangeWorkspaceFolders.
func (w *workspace) changeFolders(params json.RawMessage) error {
	var p struct {
		Event struct {
			Added, Removed []struct {
				URI string `json:"uri"`
			}
		} `json:"event"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var kept []string
	for _, f := range w.folders {
		gone := false
		for _, r := range p.Event.Removed {
			gone = gone || samePath(f, uriPath(r.URI))
		}
		if !gone {
			kept = append(kept, f)
		}
	}
	for _, a := range p.Event.Added {
		kept = append(kept, uriPath(a.URI))
	}
	w.folders = kept
	return nil
}

// importer is an FCSTM file that imports a unit: its index, its text,
// the unit it imports and the state paths at which it mounts it.
type importer struct {
	ix      *index
	src     *source
	unit    string
	aliases []string
}

// maxImporterDepth follows importers of importers as deep as imports may
// nest (docs/fcstm.md#imports).
const maxImporterDepth = 16

// importersOf finds the FCSTM files that import unit, directly or
// through other importers, parents before the files that import them:
// among the open documents and the .fcstm files of the workspace folders
// (at most maxWorkspaceFiles, none over --max-input-bytes, symbolic links
// not followed, so that the walk stays inside the folders). stale lists
// the files that name a unit of the chain but do not parse as they are
// now: their uses cannot be found, so a rename must not go ahead.
func (w *workspace) importersOf(ctx context.Context, unit string) (found []importer, stale []string) {
	var candidates []string
	for _, u := range w.uris() {
		if d := w.get(u); d != nil && d.lang == langFCSTM {
			candidates = append(candidates, d.path)
		}
	}
	candidates = append(candidates, w.workspaceFiles(ctx)...)
	done := map[string]bool{absPath(unit): true}
	staleSeen := map[string]bool{}
	level := []string{unit}
	for depth := 0; depth < maxImporterDepth && len(level) > 0 && ctx.Err() == nil; depth++ {
		var next []string
		for _, u := range level {
			imps, st := w.directImporters(candidates, u)
			for _, p := range st {
				if !staleSeen[absPath(p)] {
					staleSeen[absPath(p)] = true
					stale = append(stale, p)
				}
			}
			for _, im := range imps {
				// A file importing two files of the chain is listed
				// with each (its names through both are edited), and
				// searched for its own importers once.
				if pair := absPath(im.src.path) + "\x00" + absPath(u); !done[pair] {
					done[pair] = true
					found = append(found, im)
				}
				if a := absPath(im.src.path); !done[a] {
					done[a] = true
					next = append(next, im.src.path)
				}
			}
		}
		level = next
	}
	return found, stale
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// directImporters are the candidates that import unit themselves.
func (w *workspace) directImporters(candidates []string, unit string) (found []importer, stale []string) {
	seen := map[string]bool{}
	base := filepath.Base(unit)
	for _, path := range candidates {
		abs := absPath(path)
		if seen[abs] || abs == absPath(unit) {
			continue
		}
		seen[abs] = true
		if src, err := w.sourceOf(path); err != nil || !strings.Contains(src.text.src, base) {
			continue // cannot import the unit: not parsed at all
		}
		ix, src := w.indexOfPath(path)
		if src == nil {
			continue
		}
		if ix == nil || ix.text.src != src.text.src {
			stale = append(stale, path)
			continue
		}
		var aliases []string
		for alias, imp := range ix.mounts {
			if samePath(ix.importPath(imp), unit) {
				aliases = append(aliases, alias)
			}
		}
		sort.Strings(aliases)
		if len(aliases) > 0 {
			found = append(found, importer{ix: ix, src: src, unit: unit, aliases: aliases})
		}
	}
	return found, stale
}

// workspaceFiles lists the .fcstm files of the workspace folders.
func (w *workspace) workspaceFiles(ctx context.Context) []string {
	w.mu.Lock()
	folders := append([]string(nil), w.folders...)
	w.mu.Unlock()
	var out []string
	for _, dir := range folders {
		_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if len(out) >= maxWorkspaceFiles || ctx.Err() != nil {
				return fs.SkipAll
			}
			if err != nil {
				return nil // an unreadable directory is skipped, not fatal
			}
			if e.IsDir() {
				if p != dir && strings.HasPrefix(e.Name(), ".") {
					return fs.SkipDir // .git and the like
				}
				return nil
			}
			if !e.Type().IsRegular() || !strings.EqualFold(filepath.Ext(p), ".fcstm") {
				return nil // symbolic links included: they may lead outside
			}
			if info, err := e.Info(); err != nil || info.Size() > w.opts.limit() {
				return nil
			}
			out = append(out, p)
			return nil
		})
	}
	return out
}

// defSites are the exact selectors of the def mappings of imports of
// the unit that name the unit's variable, so that a renamed variable
// keeps its mapping and the host's name for it. (A set's target is "*"
// or a template, which derive the host's name from the unit's: editing
// its member could not keep the name, so rename refuses those.) The
// parser keeps no position for the name, so it is found in the text
// between "def" and "->".
func defSites(ix *index, alias, name string) []occurrence {
	imp := ix.mounts[alias]
	if imp == nil {
		return nil
	}
	var out []occurrence
	src := ix.text.src
	for _, d := range imp.Defs {
		if d.Kind != ast.SelectExact || d.Names[0] != name {
			continue
		}
		start := d.Pos.Offset + len("def")
		end := strings.Index(src[start:], "->")
		if end < 0 {
			continue
		}
		sel := src[start : start+end]
		for i := 0; i+len(name) <= len(sel); i++ {
			if sel[i:i+len(name)] != name || (i > 0 && isNameByte(sel[i-1])) || (i+len(name) < len(sel) && isNameByte(sel[i+len(name)])) {
				continue
			}
			out = append(out, occurrence{kind: kVar, key: name, start: start + i, end: start + i + len(name)})
		}
	}
	return out
}
