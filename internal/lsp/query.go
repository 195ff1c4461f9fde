package lsp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/fcstmfront"
	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/lineend"
	"github.com/stateproof/stateproof/internal/prove"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
)

// modelLine is the comment that names a query's model: `// model: PATH`,
// PATH relative to the query file. It is matched line by line, lines
// ending as package lineend says, because the (?m) anchors of package
// regexp know only "\n".
var modelLine = regexp.MustCompile(`^[ \t]*//[ \t]*model:[ \t]*(\S+)[ \t]*$`)

// findModelLine returns the byte range of PATH in the first `// model:`
// line of src.
func findModelLine(src string) (start, end int, ok bool) {
	for off := 0; off < len(src); off = lineend.Next(src, off) {
		if m := modelLine.FindStringSubmatchIndex(src[off:lineend.LineEnd(src, off)]); m != nil {
			return off + m[2], off + m[3], true
		}
	}
	return 0, 0, false
}

// queryModel finds the model a query or RSC file is checked against: the
// file its `// model:` line names, or else the .fcstm or .json file beside
// it with the same stem. The position is the model line's (for an error
// about it); ok is false when the query names no model and none is beside
// it.
func (w *workspace) queryModel(d *document) (path string, at int, ok bool) {
	if start, end, ok := findModelLine(d.text.src); ok {
		rel := d.text.src[start:end]
		if !filepath.IsAbs(rel) {
			rel = filepath.Join(filepath.Dir(d.path), rel)
		}
		return rel, start, true
	}
	stem := strings.TrimSuffix(d.path, filepath.Ext(d.path))
	for _, ext := range []string{".fcstm", ".json"} {
		p := stem + ext
		if w.byPath(p) != nil {
			return p, -1, true
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, -1, true
		}
	}
	return "", -1, false
}

// loadModel loads the model at path for a query, reading through the
// open documents.
func (w *workspace) loadModel(path string) (*frontend.Model, error) {
	data, err := w.readFile(path)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(filepath.Ext(path), ".fcstm") {
		m, err := model.Parse(path, string(data), w.modelOptions())
		if err != nil {
			return nil, fmt.Errorf("the model does not load: %v", err)
		}
		return fcstmfront.FromModel(m, path)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil {
		return nil, err
	}
	if !res.Valid() {
		return nil, fmt.Errorf("the model is not valid: %s", strings.Join(res.Errors, "; "))
	}
	return jsonfront.FromModel(res.Model, path), nil
}

func queryDiag(t *text, sp expr.Span, code, msg string) Diagnostic {
	r := Range{Start: t.position(sp.Start.Offset), End: t.position(sp.End.Offset)}
	if !sp.End.IsValid() || sp.End.Offset <= sp.Start.Offset {
		r = t.wordRange(sp.Start.Line, sp.Start.Col)
	}
	return Diagnostic{Range: r, Severity: sevError, Code: code, Source: "stateproof",
		CodeDescription: &CodeDescription{Href: docsBase + "docs/queries.md#diagnostic-codes"}, Message: msg}
}

// modelDiag is the diagnostic of a query whose model cannot be read or
// loaded, at the model line (or the first line).
func modelDiag(d *document, at int, href, msg string) Diagnostic {
	r := Range{}
	if at >= 0 {
		r = Range{Start: d.text.position(at), End: d.text.position(at)}
		_, end := d.text.lineBounds(r.Start.Line)
		r.End = d.text.position(end)
	}
	return Diagnostic{Range: r, Severity: sevWarning, Code: "LSP_NO_MODEL", Source: "stateproof",
		CodeDescription: &CodeDescription{Href: href}, Message: msg}
}

// queryDiagnostics parse an FBMCQ query and bind it to its model: a
// syntax error, or a name, bound or type error at its position.
func (w *workspace) queryDiagnostics(d *document) []Diagnostic {
	out := []Diagnostic{}
	q, err := query.Parse(d.path, d.text.src)
	var qe *query.Error
	if err != nil {
		if errors.As(err, &qe) {
			return append(out, queryDiag(d.text, qe.Span, qe.Code, qe.Msg))
		}
		return append(out, Diagnostic{Severity: sevError, Source: "stateproof", Message: err.Error()})
	}
	href := docsBase + "docs/lsp.md#query-files"
	path, at, ok := w.queryModel(d)
	if !ok {
		return append(out, modelDiag(d, at, href, "names are not checked: no `// model: PATH` line and no .fcstm or .json file with the same name beside this one"))
	}
	m, err := w.loadModel(path)
	if err != nil {
		return append(out, modelDiag(d, at, href, fmt.Sprintf("names are not checked against %s: %v", path, err)))
	}
	out = unknownNames(d, m.System)
	if err := query.Bind(q, m.System, query.BindOptions{MaxBound: frontend.DefaultMaxBound}); err != nil {
		if !errors.As(err, &qe) {
			return append(out, Diagnostic{Severity: sevError, Source: "stateproof", Message: err.Error()})
		}
		diag := queryDiag(d.text, qe.Span, qe.Code, qe.Msg)
		for i, o := range out {
			if overlap(o.Range, diag.Range) {
				// Binding stopped at a name already reported: its
				// message (which lists the names known) replaces ours.
				out[i].Message = diag.Message
				return out
			}
		}
		out = append(out, diag)
	}
	return out
}

// unknownNames reports every state, event and variable the query names
// that its model does not have. Binding stops at its first error; this
// pass lists them all, so that one typo does not hide the next.
func unknownNames(d *document, sys *sts.System) []Diagnostic {
	states, events, vars := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, l := range sys.Locations {
		states[l.Name] = true
		for _, a := range l.Ancestors {
			states[a] = true
		}
	}
	for _, e := range sys.Events {
		events[e.Name] = true
	}
	for _, v := range sys.Vars {
		vars[v.Name] = true
	}
	out := []Diagnostic{}
	for _, n := range queryNames(d.path, d.text.src) {
		var known map[string]bool
		var code string
		switch n.kind {
		case kState:
			known, code = states, query.CodeUnknownState
		case kEvent:
			known, code = events, query.CodeUnknownEvent
		case kVar:
			known, code = vars, query.CodeUnknownVariable
		default:
			continue
		}
		if known[n.name] {
			continue
		}
		r := d.text.rangeOf(n.start, n.start+len(n.name))
		out = append(out, Diagnostic{Range: r, Severity: sevError, Code: code, Source: "stateproof",
			CodeDescription: &CodeDescription{Href: docsBase + "docs/queries.md#diagnostic-codes"},
			Message:         fmt.Sprintf("unknown %s %q in %s", n.kind, n.name, filepath.Base(sys.Name))})
	}
	return out
}

// rscError matches the ":line:col: message" of an RSC error after its
// file name.
var rscError = regexp.MustCompile(`(?s)^:(\d+):(\d+): (.*)$`)

// rscDiagnostics parse an RSC file against its model's state graph: a
// syntax error, an unknown state or a name or type error in a constraint.
func (w *workspace) rscDiagnostics(d *document) []Diagnostic {
	out := []Diagnostic{}
	href := docsBase + "docs/rsc.md#the-file-format"
	path, at, ok := w.queryModel(d)
	if !ok {
		return append(out, modelDiag(d, at, href, "not checked: no `// model: PATH` line and no .fcstm or .json file with the same name beside this one"))
	}
	m, err := w.loadModel(path)
	if err != nil {
		return append(out, modelDiag(d, at, href, fmt.Sprintf("not checked against %s: %v", path, err)))
	}
	g, err := prove.FromSystem(m.System)
	if err != nil {
		return append(out, modelDiag(d, at, href, fmt.Sprintf("not checked against %s: %v", path, err)))
	}
	if _, err := prove.ParseRSC(d.path, d.text.src, g); err != nil {
		msg := err.Error()
		r := Range{}
		if sub := rscError.FindStringSubmatch(strings.TrimPrefix(msg, d.path)); sub != nil {
			line, _ := strconv.Atoi(sub[1])
			col, _ := strconv.Atoi(sub[2])
			r, msg = d.text.wordRange(line, col), sub[3]
		}
		out = append(out, Diagnostic{Range: r, Severity: sevError, Code: "RSC_INVALID", Source: "stateproof",
			CodeDescription: &CodeDescription{Href: href}, Message: msg})
	}
	return out
}

func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

func overlap(a, b Range) bool { return before(a.Start, b.End) && before(b.Start, a.End) }
