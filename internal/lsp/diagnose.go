package lsp

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/parser"
	"github.com/stateproof/stateproof/internal/inspect"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/verify"
)

// docsBase is where a diagnostic's code links to: the project's manual.
const docsBase = "https://github.com/stateproof/stateproof/blob/main/"

// verifyMaxStates caps the explicit-state search behind a JSON model's
// diagnostics: the editor asks on every pause in typing, so the search is
// kept small; a check it leaves undecided says so (a warning), never a pass.
const verifyMaxStates = 10000

// diagnose computes a document's diagnostics within ctx's budget. A panic
// in an analysis, or a budget that runs out, is itself a diagnostic: the
// document is then not known to be clean, and the editor must not show it
// as if it were. The analysis gets ctx too, and stops soon after it ends
// (the budget, a newer version, the document closed): an answer given at
// the budget must not leave the work behind it running.
func (w *workspace) diagnose(ctx context.Context, d *document) []Diagnostic {
	if w.tooLarge(d.text) {
		return []Diagnostic{{
			Range: Range{}, Severity: sevWarning, Code: "LSP_TOO_LARGE", Source: "stateproof",
			CodeDescription: &CodeDescription{Href: docsBase + "docs/lsp.md#limits"},
			Message:         fmt.Sprintf("not checked: the document has %d bytes, more than --max-input-bytes (%d)", len(d.text.src), w.opts.limit()),
		}}
	}
	notChecked := []Diagnostic{internalDiag("not checked: the analysis did not finish within its time budget (docs/lsp.md#limits)")}
	release, ok := w.analyses.acquire(ctx, d.uri)
	if !ok {
		return notChecked
	}
	done := make(chan []Diagnostic, 1)
	go func() {
		defer release()
		defer func() {
			if r := recover(); r != nil {
				done <- []Diagnostic{internalDiag(fmt.Sprintf("not checked: internal error: %v", r))}
			}
		}()
		if w.prelude != nil {
			w.prelude(ctx)
		}
		done <- w.analyze(ctx, d)
	}()
	select {
	case ds := <-done:
		if ctx.Err() != nil {
			return notChecked // an engine that stopped early answered in part
		}
		return ds
	case <-ctx.Done():
		return notChecked
	}
}

// analyses are the analysis goroutines of a workspace. At most one runs
// per document: edits that come faster than an analysis ends must not
// pile analyses up, each on a core.
type analyses struct {
	mu      sync.Mutex
	running map[string]chan struct{} // by uri, closed when that analysis returns
}

// acquire waits until no analysis of uri runs and claims the slot until
// release; ok is false when ctx ends first.
func (a *analyses) acquire(ctx context.Context, uri string) (release func(), ok bool) {
	for {
		a.mu.Lock()
		prev := a.running[uri]
		if prev == nil {
			if a.running == nil {
				a.running = map[string]chan struct{}{}
			}
			mine := make(chan struct{})
			a.running[uri] = mine
			a.mu.Unlock()
			return func() {
				a.mu.Lock()
				delete(a.running, uri)
				a.mu.Unlock()
				close(mine)
			}, true
		}
		a.mu.Unlock()
		select {
		case <-prev:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// count is how many analyses run (a test's view of the goroutines).
func (a *analyses) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.running)
}

func internalDiag(msg string) Diagnostic {
	return Diagnostic{Severity: sevWarning, Code: "LSP_NOT_CHECKED", Source: "stateproof",
		CodeDescription: &CodeDescription{Href: docsBase + "docs/lsp.md#limits"}, Message: msg}
}

func (w *workspace) analyze(ctx context.Context, d *document) []Diagnostic {
	switch d.lang {
	case langFCSTM:
		return w.fcstmDiagnostics(ctx, d)
	case langJSON:
		return w.jsonDiagnostics(ctx, d)
	case langFBMCQ:
		return w.queryDiagnostics(d)
	case langRSC:
		return w.rscDiagnostics(d)
	}
	return []Diagnostic{}
}

// fcstmDiagnostics are verify's answer for an FCSTM file: every parse and
// construction error, the initial-value check and the lints L1–L4; and
// for a model that loads, inspect's diagnostics, which replace a lint that
// reports the same problem at the same place (inspectTwin).
// A finding in an imported file is shown at the import that reads it.
func (w *workspace) fcstmDiagnostics(ctx context.Context, d *document) []Diagnostic {
	out := []Diagnostic{}
	// One load for the lint and inspect: parsing and building the model
	// is most of either's cost on an edit (docs/lsp.md).
	src := []byte(d.text.src)
	tree, m, err := w.loadFCSTM(d)
	res, cerr := lint.CheckLoadedContext(ctx, d.path, src, m, err)
	if cerr != nil {
		return out // ctx ended: diagnose answers "not checked"
	}
	if ctx.Err() != nil {
		return out
	}
	var ins *inspect.Result // nil when the model does not load: the lint shows its load errors, once
	done := map[twinKey]bool{}
	if err == nil {
		ins = inspect.Loaded(d.path, src, tree, m, nil, inspect.Options{Model: w.modelOptions()})
		done = decided(ins)
	}
	for _, c := range res.Report.Checks {
		for _, f := range c.Findings {
			file, _ := f.Evidence.Get("file").(string)
			line, _ := f.Evidence.Get("line").(int)
			col, _ := f.Evidence.Get("col").(int)
			if twin := inspectTwin(f.Code); twin != "" && done[twinKey{twin, absPath(cmp.Or(file, d.path)), line}] {
				continue
			}
			msg := cleanMessage(f.Message, file, line, col, f.Code)
			rng := nameRange(d.text, line, col)
			if file != "" && !samePath(file, d.path) {
				rng = w.importRange(d, file)
				msg = fmt.Sprintf("in %s:%d:%d: %s", file, line, col, msg)
			}
			out = append(out, Diagnostic{
				Range: rng, Severity: severity(f.Severity), Code: f.Code, Source: "stateproof",
				CodeDescription: &CodeDescription{Href: fcstmHref(c.ID, f.Code)}, Message: msg,
			})
		}
	}
	if ins != nil {
		out = append(out, w.inspectDiagnostics(d, ins)...)
	}
	return out
}

// loadFCSTM parses the document and builds its model: the tree (nil
// when it does not parse) and the model, or the load's failure.
func (w *workspace) loadFCSTM(d *document) (*ast.File, *model.Model, error) {
	f, err := parser.Parse(d.path, d.text.src)
	if err != nil {
		return nil, nil, err
	}
	m, err := model.Build(f, w.modelOptions())
	return f, m, err
}

// cleanMessage drops the "file:line:col: " prefix and " [CODE]" suffix a
// load error's one-line form carries: the editor shows both already.
func cleanMessage(msg, file string, line, col int, code string) string {
	msg = strings.TrimPrefix(msg, fmt.Sprintf("%s:%d:%d: ", file, line, col))
	return strings.TrimSuffix(msg, " ["+code+"]")
}

func samePath(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// importRange is the range of the import statement that reads file (its
// path string), or of the first import when file is imported deeper down.
func (w *workspace) importRange(d *document, file string) Range {
	f, err := parser.Parse(d.path, d.text.src)
	if err != nil {
		return Range{}
	}
	var first *Range
	for _, imp := range imports(f.Root) {
		r := Range{Start: d.text.at(imp.FilePos.Line, imp.FilePos.Col), End: d.text.at(imp.FilePos.Line, imp.FilePos.Col+len([]rune(imp.File))+2)}
		if samePath(filepath.Join(filepath.Dir(d.path), imp.File), file) {
			return r
		}
		if first == nil {
			first = &r
		}
	}
	if first != nil {
		return *first
	}
	return Range{}
}

// nameRange is the range of the name at a finding's position; a state's
// findings point at its `state` (or `pseudo`) keyword, so the range moves
// on to the state's name, which is what the user reads as the state.
func nameRange(t *text, line, col int) Range {
	r := t.wordRange(line, col)
	for range 2 {
		start, end := t.offset(r.Start), t.offset(r.End)
		if w := t.src[start:end]; w != "state" && w != "pseudo" {
			break
		}
		next := end
		for next < len(t.src) && (t.src[next] == ' ' || t.src[next] == '\t') {
			next++
		}
		p := t.position(next)
		r = t.wordRange(p.Line+1, runeCol(t, next))
	}
	return r
}

// runeCol is the 1-based rune column of byte offset off.
func runeCol(t *text, off int) int {
	start, _ := t.lineBounds(t.lineOf(off))
	return utf8.RuneCountInString(t.src[start:off]) + 1
}

func severity(s string) int {
	switch s {
	case report.Error:
		return sevError
	case report.Warning:
		return sevWarning
	}
	return sevInfo
}

// fcstmHref links an FCSTM finding to the manual: a load error to the
// list of errors, a lint's code to its section in the registry's page
// (inspect.DocPath).
func fcstmHref(check, code string) string {
	if check == lint.CheckModel {
		return docsBase + "docs/fcstm.md#errors"
	}
	return docsBase + inspect.DocPath(code)
}

// jsonDiagnostics are verify's answer for a JSON model (a .json document
// with a schemaVersion key; other JSON is not a model and gets none):
// the syntax error, every schema error at the element its path names, and
// the findings of the checks that name a state, transition, variable or
// invariant.
func (w *workspace) jsonDiagnostics(ctx context.Context, d *document) []Diagnostic {
	out := []Diagnostic{}
	raw, err := jsonvalue.Parse([]byte(d.text.src))
	if err != nil {
		if se, ok := err.(*jsonvalue.SyntaxError); ok {
			r := d.text.wordRange(se.Pos.Line, se.Pos.Col)
			return append(out, Diagnostic{Range: r, Severity: sevError, Code: "INPUT_NOT_JSON", Source: "stateproof",
				CodeDescription: &CodeDescription{Href: docsBase + "docs/models.md#the-model-key-by-key"}, Message: se.Msg})
		}
		return append(out, Diagnostic{Severity: sevError, Code: "INPUT_NOT_JSON", Source: "stateproof", Message: err.Error()})
	}
	if raw.Kind != jsonvalue.Object || raw.Get("schemaVersion") == nil {
		return out
	}
	res := jsonmodel.Validate(raw)
	opts := verify.DefaultOptions()
	opts.MaxStates, opts.Workers = verifyMaxStates, 1
	opts.Done = ctx.Done() // its searches stop as at their cap; diagnose discards the report
	rep := verify.Run(res, opts)
	for _, c := range rep.Checks {
		for i := range c.Findings {
			f := &c.Findings[i]
			path, msg := findingPath(f, res)
			if path == "" {
				continue
			}
			v, _ := jsonmodel.LocateValue(raw, path)
			out = append(out, Diagnostic{
				Range:    Range{Start: d.text.at(v.Pos.Line, v.Pos.Col), End: d.text.at(v.End.Line, v.End.Col)},
				Severity: severity(f.Severity), Code: f.Code, Source: "stateproof",
				CodeDescription: &CodeDescription{Href: jsonHref(c.ID)}, Message: msg,
			})
		}
	}
	return out
}

// findingPath is the walker path of the element a finding is about, and
// the message to show there; "" when the finding names no element.
func findingPath(f *report.Finding, res *jsonmodel.Result) (string, string) {
	if f.Code == "MODEL_INVALID" {
		path, msg, ok := strings.Cut(f.Message, ": ")
		if !ok {
			return "schemaVersion", f.Message
		}
		return path, msg
	}
	m := res.Model
	if m == nil {
		return "", ""
	}
	if t, ok := f.Evidence.Get("transition").(int); ok {
		return m.ElementPath("transition", strconv.Itoa(t)), f.Message
	}
	switch inv := f.Evidence.Get("invariant").(type) {
	case string:
		return m.ElementPath("invariant", inv), f.Message
	case *jsonvalue.Value:
		if id := inv.Get("id"); id != nil {
			return m.ElementPath("invariant", id.Str), f.Message
		}
	}
	var target string
	switch t := f.Target.(type) {
	case string:
		target = t
	case []string:
		if len(t) > 0 {
			target = t[0]
		}
	}
	if p := m.ElementPath("state", target); p != "" {
		return p, f.Message
	}
	return m.ElementPath("variable", target), f.Message
}

func jsonHref(check string) string {
	switch {
	case check == "MODEL":
		return docsBase + "docs/models.md#the-model-key-by-key"
	case strings.HasPrefix(check, "S"):
		return docsBase + "docs/models.md#structural-checks-s1s8"
	case strings.HasPrefix(check, "A"):
		return docsBase + "docs/models.md#adversarial-probes-a1a15"
	}
	return docsBase + "docs/models.md"
}
