package lsp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/fcstmfront"
	"github.com/stateproof/stateproof/internal/query"
)

var namePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// rename edits every occurrence of the name under the cursor: in its
// model, in the document that reaches it through an import, and in the
// queries checked against the model. The edit is refused, with the
// reason, when the edited files would not load: each edited model is
// parsed and constructed again, and each edited query bound again.
func (s *server) rename(ctx context.Context, p renameParams) (any, error) {
	d, t, o, ix, err := s.targetAt(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	if d.lang == langFCSTM && (ix == nil || ix.text.src != d.text.src) {
		return nil, errorf(codeRequestFailed, "rename needs the file to parse, and it does not as it is now")
	}
	if !namePattern.MatchString(p.NewName) || parser.IsReserved(p.NewName) {
		return nil, errorf(codeRequestFailed, "cannot rename to %q: a name is [A-Za-z_][A-Za-z0-9_]* and not a reserved word (docs/fcstm.md#lexical-rules)", p.NewName)
	}
	if o.kind == 0 || o.kind == kImport {
		return nil, errorf(codeRequestFailed, "there is no state, event, variable or action name of an FCSTM model here to rename")
	}
	if t == nil {
		return nil, errorf(codeRequestFailed, "cannot rename %s %q: its declaration in an FCSTM model was not found", o.kind, o.key)
	}
	if cur, err := s.ws.sourceOf(t.ix.path); err != nil || cur.text.src != t.ix.text.src {
		return nil, errorf(codeRequestFailed, "rename needs %s to parse, and it does not as it is now", t.ix.path)
	}
	imps, stale := s.ws.importersOf(ctx, t.src.path)
	if len(stale) > 0 {
		return nil, errorf(codeRequestFailed, "rename refused: %s names %s but does not parse as it is now, so its uses cannot be found; fix it first", strings.Join(stale, ", "), filepath.Base(t.src.path))
	}
	sites := s.sites(d, ix, t, o, imps)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	edits := map[string][]TextEdit{}
	edited := map[string]string{} // absolute path -> new text
	for src, occs := range sites {
		es, next := applyRename(src.text, occs, p.NewName)
		edits[src.uri] = es
		edited[absPath(src.path)] = next
	}
	// An importer is loaded again even when nothing in it is edited: a
	// unit's variable renamed away from a host's def mapping breaks it.
	check := maps.Clone(edited)
	for _, im := range imps {
		if _, ok := check[absPath(im.src.path)]; !ok {
			check[absPath(im.src.path)] = im.src.text.src
		}
	}
	if err := s.ws.checkEdited(check); err != nil {
		return nil, errorf(codeRequestFailed, "rename refused: the result would not load: %v", err)
	}
	if t.occ.kind == kVar {
		if err := s.ws.varsKept(imps, check); err != nil {
			return nil, errorf(codeRequestFailed, "rename refused: %v", err)
		}
	}
	return WorkspaceEdit{Changes: edits}, nil
}

// applyRename returns the edits replacing each occurrence by name, and
// the text with them applied.
func applyRename(t *text, occs []occurrence, name string) ([]TextEdit, string) {
	sort.Slice(occs, func(i, j int) bool { return occs[i].start < occs[j].start })
	var b strings.Builder
	var edits []TextEdit
	last := 0
	for _, o := range occs {
		if o.start < last {
			continue // the same site recorded twice
		}
		edits = append(edits, TextEdit{Range: t.rangeOf(o.start, o.end), NewText: name})
		b.WriteString(t.src[last:o.start])
		b.WriteString(name)
		last = o.end
	}
	b.WriteString(t.src[last:])
	return edits, b.String()
}

// checkEdited loads every edited file as it would be after the edit:
// each FCSTM model constructed (with the other edited files in place of
// their current text), each query parsed and bound to its model.
func (w *workspace) checkEdited(edited map[string]string) error {
	over := &overlay{w: w, files: edited}
	paths := make([]string, 0, len(edited))
	for p := range edited {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var errs []error
	for _, p := range paths {
		src := edited[p]
		switch languageOf(p, "") {
		case langFCSTM:
			if _, err := model.Parse(p, src, over.options()); err != nil {
				errs = append(errs, err)
			}
		case langFBMCQ:
			if err := over.checkQuery(p, src); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// overlay reads files as they would be after an edit.
type overlay struct {
	w     *workspace
	files map[string]string
}

func (o *overlay) read(path string) ([]byte, error) {
	for p, src := range o.files {
		if samePath(p, path) {
			return []byte(src), nil
		}
	}
	return o.w.readFile(path)
}

func (o *overlay) options() model.Options {
	opts := o.w.modelOptions()
	inner := opts.ReadImport
	opts.ReadFile = o.read
	opts.ReadImport = func(root, path string) ([]byte, error) {
		for p, src := range o.files {
			if samePath(p, path) && within(root, path) {
				return []byte(src), nil
			}
		}
		return inner(root, path)
	}
	return opts
}

func (o *overlay) checkQuery(path, src string) error {
	q, err := query.Parse(path, src)
	if err != nil {
		return err
	}
	mp, _, ok := o.w.queryModel(&document{path: path, text: newText(src)})
	if !ok || !strings.EqualFold(filepath.Ext(mp), ".fcstm") {
		return nil
	}
	data, err := o.read(mp)
	if err != nil {
		return err
	}
	m, err := model.Parse(mp, string(data), o.options())
	if err != nil {
		return err
	}
	fm, err := fcstmfront.FromModel(m, mp)
	if err != nil {
		return fmt.Errorf("%s: %v", mp, err)
	}
	return query.Bind(q, fm.System, query.BindOptions{MaxBound: frontend.DefaultMaxBound})
}

// varsKept refuses a unit variable's rename that changes what an
// importer calls its variables: a def mapping by pattern or by "*", or
// none at all, derives the host's name from the unit's, so the host's
// uses and queries of the old name would silently mean another variable
// (or a binding to a host variable would be lost).
func (w *workspace) varsKept(imps []importer, after map[string]string) error {
	over := &overlay{w: w, files: after}
	seen := map[string]bool{}
	for _, im := range imps {
		if seen[absPath(im.src.path)] {
			continue
		}
		seen[absPath(im.src.path)] = true
		if _, ok := after[absPath(im.src.path)]; !ok {
			return fmt.Errorf("%s: internal error: not in the checked set", im.src.path)
		}
		before, err1 := model.Parse(im.src.path, im.src.text.src, w.modelOptions())
		next, err2 := model.Parse(im.src.path, after[absPath(im.src.path)], over.options())
		if err1 != nil || err2 != nil {
			continue // a model that does not load is checkEdited's to refuse
		}
		if lost, gained := varDiff(before, next); lost != "" || gained != "" {
			return fmt.Errorf("%s would lose the variables %s and gain %s: its import maps the variable by a set, a pattern, by \"*\" or not at all; add an exact def mapping first (docs/fcstm.md#imports)", im.src.path, lost, gained)
		}
	}
	return nil
}

// varDiff lists the variables of a that b lacks, and those of b that a
// lacks ("" when none).
func varDiff(a, b *model.Model) (lost, gained string) {
	minus := func(x, y *model.Model) string {
		var out []string
		for _, v := range x.Vars {
			if y.VarByName[v.Name] == nil {
				out = append(out, v.Name)
			}
		}
		if len(out) == 0 {
			return ""
		}
		sort.Strings(out)
		return "{" + strings.Join(out, ", ") + "}"
	}
	return minus(a, b), minus(b, a)
}
