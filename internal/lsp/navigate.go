package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// source is a file navigation reads: an open document or a file on disk.
type source struct {
	uri  string
	path string
	text *text
}

func (w *workspace) sourceOf(path string) (*source, error) {
	if d := w.byPath(path); d != nil {
		return &source{uri: d.uri, path: d.path, text: d.text}, nil
	}
	data, err := w.reader().ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &source{uri: pathURI(path), path: path, text: newText(string(data))}, nil
}

// indexOf returns the navigation index of an open document. While the
// text does not parse (the user is typing), the last index that parsed is
// used, so that completion and the outline keep working; its offsets are
// then only approximately right, which is what an editor expects.
func (w *workspace) indexOf(d *document) *index {
	w.mu.Lock()
	c := w.cache[d.uri]
	w.mu.Unlock()
	if c != nil && c.version == d.version && c.text == d.text {
		return c.ix
	}
	var ix *index
	if !w.tooLarge(d.text) {
		ix = buildIndex(d.path, d.text)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	c = w.cache[d.uri]
	if ix == nil {
		if c != nil {
			return c.ix
		}
		return nil
	}
	// A request holding an older snapshot must not replace a newer
	// index, and a closed document keeps none.
	if _, open := w.docs[d.uri]; open && (c == nil || d.version >= c.version) {
		w.cache[d.uri] = &cached{version: d.version, text: d.text, ix: ix}
	}
	return ix
}

type cached struct {
	version int
	text    *text
	ix      *index
}

func (w *workspace) indexOfPath(path string) (*index, *source) {
	src, err := w.sourceOf(path)
	if err != nil {
		return nil, nil
	}
	if d := w.byPath(path); d != nil {
		return w.indexOf(d), src
	}
	if w.tooLarge(src.text) {
		return nil, src
	}
	return buildIndex(path, src.text), src
}

func (s *server) fcstmDoc(uri string) (*document, *index, error) {
	d := s.ws.get(uri)
	if d == nil {
		return nil, nil, errorf(codeInvalidParams, "%s is not open", uri)
	}
	if d.lang != langFCSTM {
		return d, nil, nil
	}
	return d, s.ws.indexOf(d), nil
}

func (t *text) rangeOf(start, end int) Range {
	return Range{Start: t.position(start), End: t.position(end)}
}

// target is a name resolved to its file: the occurrence and the index and
// source it belongs to.
type target struct {
	occ occurrence
	ix  *index
	src *source
}

// resolve finds the declaration of the name under the cursor: in the
// document, or, for a name inside an imported unit, in the imported file.
func (s *server) resolve(d *document, ix *index, pos Position) (*target, occurrence, bool) {
	o, ok := ix.at(ix.translate(d.text.src, d.text.offset(pos)))
	if !ok {
		return nil, o, false
	}
	src := &source{uri: d.uri, path: d.path, text: ix.text}
	if o.kind == kImport {
		return nil, o, true
	}
	// A name below an import alias (other than the alias itself) belongs
	// to the imported file.
	if imp, rest, ok := ix.mountOf(o.key); ok && rest != "" {
		sub, ssrc := s.ws.indexOfPath(ix.importPath(imp))
		if sub != nil {
			if decl, ok := sub.declOf(o.kind, sub.rootName()+rest); ok {
				return &target{decl, sub, ssrc}, o, true
			}
		}
	}
	if decl, ok := ix.declOf(o.kind, o.key); ok {
		return &target{decl, ix, src}, o, true
	}
	return nil, o, true
}

func (ix *index) importPath(imp *ast.Import) string {
	for _, o := range ix.occs {
		if o.kind == kImport && o.start == imp.FilePos.Offset {
			return o.key
		}
	}
	return ""
}

func (s *server) definition(_ context.Context, p positionParams) (any, error) {
	d, ix, err := s.fcstmDoc(p.TextDocument.URI)
	if err == nil && d.lang == langJSON && !s.ws.tooLarge(d.text) {
		return jsonDefinition(d, p.Position), nil
	}
	if err == nil && (d.lang == langFBMCQ || d.lang == langRSC) && !s.ws.tooLarge(d.text) {
		return s.queryDefinition(d, p.Position), nil
	}
	if err != nil || ix == nil {
		return nil, err
	}
	t, o, ok := s.resolve(d, ix, p.Position)
	if !ok {
		return nil, nil
	}
	if o.kind == kImport {
		return []Location{{URI: pathURI(o.key), Range: Range{}}}, nil
	}
	if t == nil {
		return nil, nil
	}
	return []Location{{URI: t.src.uri, Range: t.src.text.rangeOf(t.occ.start, t.occ.end)}}, nil
}

// sites are every occurrence of a name, grouped by file: in the file
// that declares it, in the document (when the name reaches into an
// import), in the files that import the declaring file (through their
// aliases: imps, from importersOf), and in the queries checked against
// each of these models.
func (s *server) sites(d *document, ix *index, t *target, o occurrence, imps []importer) map[*source][]occurrence {
	st := siteSet{out: map[*source][]occurrence{}, seen: map[string]*source{}}
	st.add(t.src, t.ix.occs, t.occ.kind, t.occ.key)
	if t.ix != ix {
		st.add(&source{uri: d.uri, path: d.path, text: ix.text}, ix.occs, o.kind, o.key)
	}
	for _, q := range s.ws.queriesOf(t.src.path) {
		st.add(q.src, q.occs, t.occ.kind, t.occ.key)
	}
	if t.occ.kind == kVar {
		// A variable keeps its mapping by the def lines of the direct
		// importers that name it; the host's name for it does not
		// change (rename checks that), so neither do the names above.
		for _, im := range imps {
			if samePath(im.unit, t.src.path) {
				for _, alias := range im.aliases {
					st.add(im.src, defSites(im.ix, alias, t.occ.key), kVar, t.occ.key)
				}
			}
		}
		return st.out
	}
	// A state, event or action below a unit's root is written in an
	// importer as the alias's path followed by the rest of its own; an
	// importer of that importer writes the result so again.
	keys := map[string][]string{absPath(t.src.path): {t.occ.key}}
	roots := map[string]string{absPath(t.src.path): t.ix.rootName()}
	for _, im := range imps {
		u, h := absPath(im.unit), absPath(im.src.path)
		roots[h] = im.ix.rootName()
		for _, key := range keys[u] {
			rest := strings.TrimPrefix(key, roots[u])
			if rest == "" || rest[0] != '.' || rest == key {
				continue
			}
			for _, alias := range im.aliases {
				hk := alias + rest
				keys[h] = append(keys[h], hk)
				st.add(im.src, im.ix.occs, t.occ.kind, hk)
				for _, q := range s.ws.queriesOf(im.src.path) {
					st.add(q.src, q.occs, t.occ.kind, hk)
				}
			}
		}
	}
	return st.out
}

// siteSet gathers occurrences per file, each file once (the same file
// may be reached as the document, an importer and a query's model) and
// each site once.
type siteSet struct {
	out  map[*source][]occurrence
	seen map[string]*source // absolute path -> its source in out
}

func (st *siteSet) add(src *source, occs []occurrence, k kind, key string) {
	abs, err := filepath.Abs(src.path)
	if err != nil {
		abs = src.path
	}
	if prev, ok := st.seen[abs]; ok {
		src = prev
	} else {
		st.seen[abs] = src
	}
	for _, oc := range occs {
		if oc.kind != k || oc.key != key {
			continue
		}
		dup := false
		for _, x := range st.out[src] {
			dup = dup || x.start == oc.start
		}
		if !dup {
			st.out[src] = append(st.out[src], oc)
		}
	}
}

// targetAt resolves the name under the cursor of an FCSTM document, or
// of a query or RSC file (to its FCSTM model's declaration); ix is the
// index whose occurrences the cursor's name is one of.
func (s *server) targetAt(uri string, pos Position) (d *document, t *target, o occurrence, ix *index, err error) {
	d, ix, err = s.fcstmDoc(uri)
	if err != nil {
		return nil, nil, o, nil, err
	}
	switch {
	case d.lang == langFBMCQ || d.lang == langRSC:
		if s.ws.tooLarge(d.text) {
			return d, nil, o, nil, s.ws.checkSize(d)
		}
		t, o, _ = s.queryTarget(d, pos)
		if t != nil {
			ix = t.ix
		}
	case ix != nil:
		t, o, _ = s.resolve(d, ix, pos)
	}
	return d, t, o, ix, nil
}

func (s *server) references(ctx context.Context, p referenceParams) (any, error) {
	d, t, o, ix, err := s.targetAt(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return []Location{}, nil
	}
	locs := []Location{}
	imps, _ := s.ws.importersOf(ctx, t.src.path)
	for src, occs := range s.sites(d, ix, t, o, imps) {
		for _, oc := range occs {
			if oc.decl && !p.Context.IncludeDeclaration {
				continue
			}
			locs = append(locs, Location{URI: src.uri, Range: src.text.rangeOf(oc.start, oc.end)})
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // the walk of the importers stopped early: not all sites
	}
	sortLocations(locs)
	return locs, nil
}

func sortLocations(locs []Location) {
	sort.Slice(locs, func(i, j int) bool {
		a, b := locs[i], locs[j]
		if a.URI != b.URI {
			return a.URI < b.URI
		}
		if a.Range.Start.Line != b.Range.Start.Line {
			return a.Range.Start.Line < b.Range.Start.Line
		}
		return a.Range.Start.Character < b.Range.Start.Character
	})
}

func (s *server) hover(_ context.Context, p positionParams) (any, error) {
	d, ix, err := s.fcstmDoc(p.TextDocument.URI)
	if err == nil && d.lang == langJSON && !s.ws.tooLarge(d.text) {
		if h := jsonHover(d, p.Position); h != nil {
			return h, nil
		}
		return nil, nil
	}
	if err == nil && (d.lang == langFBMCQ || d.lang == langRSC) && !s.ws.tooLarge(d.text) {
		if h := s.queryHover(d, p.Position); h != nil {
			return h, nil
		}
		return nil, nil
	}
	if err != nil || ix == nil {
		return nil, err
	}
	t, o, ok := s.resolve(d, ix, p.Position)
	if !ok {
		return nil, nil
	}
	r := ix.text.rangeOf(o.start, o.end)
	var md string
	if o.kind == kImport {
		md = fmt.Sprintf("**import** `%s`", o.key)
	} else if t != nil {
		md = t.ix.describe(t.occ)
	} else {
		md = fmt.Sprintf("**%s** `%s` (no declaration found)", o.kind, o.key)
	}
	return Hover{Contents: markupContent{Kind: "markdown", Value: md}, Range: &r}, nil
}

// describe is the hover text of a declared name: its kind and path, the
// `named` text, the documentation block and what it is.
func (ix *index) describe(o occurrence) string {
	var b strings.Builder
	switch o.kind {
	case kState:
		st := ix.states[o.key]
		kind := "state"
		if st != nil && st.Pseudo {
			kind = "pseudo state"
		}
		fmt.Fprintf(&b, "**%s** `%s`", kind, o.key)
		if imp := ix.mounts[o.key]; imp != nil {
			fmt.Fprintf(&b, "\n\nimported from `%s`", imp.File)
			writeNamed(&b, imp.Display, "")
			break
		}
		if st != nil {
			n := 0
			for _, it := range st.Items {
				if _, ok := it.(*ast.StateDecl); ok {
					n++
				}
			}
			if n > 0 {
				fmt.Fprintf(&b, " — composite, %d children", n)
			} else {
				b.WriteString(" — leaf")
			}
			writeNamed(&b, st.Display, st.Doc)
		}
	case kEvent:
		fmt.Fprintf(&b, "**event** `%s`\n\nabsolute path `/%s`", o.key, strings.TrimPrefix(strings.TrimPrefix(o.key, ix.rootName()), "."))
		if e := ix.events[o.key]; e != nil {
			writeNamed(&b, e.Display, e.Doc)
		}
	case kVar:
		v := ix.vars[o.key]
		typ := "int"
		if v != nil && v.Float {
			typ = "float"
		}
		fmt.Fprintf(&b, "**variable** `%s`: `%s`", o.key, typ)
		if v != nil && v.Init != nil {
			fmt.Fprintf(&b, "\n\ninitial value `%s`", expr.Format(v.Init))
			if val, err := expr.Eval(v.Init, expr.Vars{}); err == nil {
				if got := val.String(); got != expr.Format(v.Init) {
					fmt.Fprintf(&b, " = `%s`", got)
				}
			}
		}
		if v != nil {
			writeNamed(&b, "", v.Doc)
		}
	case kAction:
		fmt.Fprintf(&b, "**action** `%s`", o.key)
		if a := ix.actions[o.key]; a != nil {
			b.WriteString(" — " + actionKind(a))
			writeNamed(&b, "", a.Doc)
		}
	}
	return b.String()
}

func writeNamed(b *strings.Builder, display, doc string) {
	if display != "" {
		fmt.Fprintf(b, "\n\nnamed “%s”", display)
	}
	if doc = strings.TrimSpace(doc); doc != "" {
		b.WriteString("\n\n" + doc)
	}
}

func actionKind(a *ast.Action) string {
	stage := [...]string{"", "enter", "during", "exit"}[a.Stage]
	if a.Aspect {
		stage = ">> " + stage
	}
	if a.When != "" {
		stage += " " + a.When
	}
	switch a.Kind {
	case ast.Abstract:
		return stage + ", abstract"
	case ast.Ref:
		return stage + ", ref " + a.Ref.String()
	}
	return stage
}
