package lsp

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/input"
)

// Languages the server knows, by file extension.
const (
	langFCSTM = "fcstm"
	langFBMCQ = "fbmcq"
	langRSC   = "rsc"
	langJSON  = "json"
)

// document is one open document at one version. Documents are values:
// a change makes a new one, so a snapshot taken by a request or an
// analysis never changes under it.
type document struct {
	uri     string
	path    string // the file path of a file: URI; the URI itself otherwise
	lang    string
	version int
	text    *text
}

// workspace holds the open documents; reads of model files prefer an open
// document's text to the file on disk, so that a query or an importing
// model is checked against what the user sees.
type workspace struct {
	opts  Options
	mu    sync.Mutex
	docs  map[string]*document
	cache map[string]*cached // the last navigation index that parsed, per document
	// folders are the workspace folders of initialize, searched for the
	// files that import a unit being renamed.
	folders  []string
	analyses analyses
	// prelude, when set (by tests), runs at the start of every analysis
	// with its context: a stand-in for an analysis that takes long and
	// stops when its context ends, since the real ones are now fast.
	prelude func(ctx context.Context)
}

func newWorkspace(opts Options) *workspace {
	return &workspace{opts: opts, docs: map[string]*document{}, cache: map[string]*cached{}}
}

// uriPath returns the file path of a file: URI, or the URI as it is.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return filepath.FromSlash(u.Path)
}

// pathURI returns the file: URI of a path.
func pathURI(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func languageOf(path, id string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".fcstm":
		return langFCSTM
	case ".fbmcq":
		return langFBMCQ
	case ".rsc":
		return langRSC
	case ".json":
		return langJSON
	}
	switch id {
	case langFCSTM, langFBMCQ, langRSC, langJSON:
		return id
	}
	return ""
}

func (w *workspace) open(item textDocumentItem) {
	path := uriPath(item.URI)
	d := &document{uri: item.URI, path: path, lang: languageOf(path, item.LanguageID), version: item.Version, text: newText(item.Text)}
	w.mu.Lock()
	w.docs[item.URI] = d
	w.mu.Unlock()
	if d.lang == langFCSTM {
		w.indexOf(d) // so that navigation has an index while the first edits do not parse
	}
}

func (w *workspace) change(p didChangeParams) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := w.docs[p.TextDocument.URI]
	if d == nil {
		return fmt.Errorf("didChange of %s, which is not open", p.TextDocument.URI)
	}
	t := d.text
	for _, c := range p.ContentChanges {
		next, err := t.apply(c)
		if err != nil {
			return fmt.Errorf("%s: %v", p.TextDocument.URI, err)
		}
		t = next
	}
	nd := *d
	nd.text, nd.version = t, p.TextDocument.Version
	w.docs[p.TextDocument.URI] = &nd
	return nil
}

func (w *workspace) close(uri string) {
	w.mu.Lock()
	delete(w.docs, uri)
	delete(w.cache, uri)
	w.mu.Unlock()
}

func (w *workspace) get(uri string) *document {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.docs[uri]
}

func (w *workspace) uris() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.docs))
	for u := range w.docs {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

// byPath returns the open document of a file path, if any.
func (w *workspace) byPath(path string) *document {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range w.docs {
		if da, err := filepath.Abs(d.path); err == nil && da == abs {
			return d
		}
	}
	return nil
}

func (w *workspace) reader() input.Reader {
	return input.Reader{MaxBytes: w.opts.limit(), ImportRoot: w.opts.ImportRoot}
}

// readFile reads path: the open document's text, or the file.
func (w *workspace) readFile(path string) ([]byte, error) {
	if d := w.byPath(path); d != nil {
		if int64(len(d.text.src)) > w.opts.limit() {
			return nil, &input.TooLargeError{Path: path, Limit: w.opts.limit()}
		}
		return []byte(d.text.src), nil
	}
	return w.reader().ReadFile(path)
}

// modelOptions are the construction options of an FCSTM model: imports
// confined as the command line confines them, read through the open
// documents.
func (w *workspace) modelOptions() model.Options {
	rd := w.reader()
	return model.Options{
		ReadFile:   w.readFile,
		ImportRoot: w.opts.ImportRoot,
		ReadImport: func(root, path string) ([]byte, error) {
			if d := w.byPath(path); d != nil && within(root, path) {
				return w.readFile(path)
			}
			return rd.ReadFileIn(root, path)
		},
	}
}

// within reports whether path lies lexically inside dir.
func within(dir, path string) bool {
	d, err1 := filepath.Abs(dir)
	p, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && filepath.IsLocal(rel)
}

// tooLarge reports whether a text is over --max-input-bytes: such a
// document is kept (the editor may shorten it) but never parsed.
func (w *workspace) tooLarge(t *text) bool { return int64(len(t.src)) > w.opts.limit() }

// checkSize is the error of a request on a document over the limit.
func (w *workspace) checkSize(d *document) error {
	if w.tooLarge(d.text) {
		return errorf(codeRequestFailed, "%s has %d bytes, more than --max-input-bytes (%d; docs/lsp.md#limits)", d.path, len(d.text.src), w.opts.limit())
	}
	return nil
}
