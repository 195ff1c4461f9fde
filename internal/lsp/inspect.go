package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/inspect"
)

// inspectTwin is the inspect code that reports the problem an FCSTM lint
// reports, or "": the registry's entry whose verify name is lintCode
// (docs/inspect.md#codes-of-stateproof-verify). Where both speak, the
// language server shows inspect's diagnostic only
// (docs/lsp.md#inspect-diagnostics): it has pyfcstm's code, the span
// pyfcstm points at, honours stateproof:ignore comments and may carry a
// quick fix.
func inspectTwin(lintCode string) string {
	if c, ok := inspect.Lookup(lintCode); ok && c.Verify == lintCode && c.Inspected() {
		return c.Name
	}
	return ""
}

// twinKey places a problem: its code, the absolute path of its file and
// the line its statement starts on.
type twinKey struct {
	code, file string
	line       int
}

// decided is where inspect decided each problem, reported or suppressed:
// a lint twin there is not shown (a suppression must not bring it back).
func decided(res *inspect.Result) map[twinKey]bool {
	out := map[twinKey]bool{}
	for _, list := range [][]inspect.Diagnostic{res.Diagnostics, res.Dropped} {
		for _, di := range list {
			line := di.Span.Line
			if s, ok := di.Refs["transition_span"].(inspect.Span); ok {
				line = s.Line // a guard's lint is at its transition
			}
			out[twinKey{di.Code, absPath(di.File), line}] = true
		}
	}
	return out
}

// inspectDocument runs inspect on the document's text; nil when the model
// does not load (the lint shows its load errors, once).
func (w *workspace) inspectDocument(d *document) *inspect.Result {
	res := inspect.Source(d.path, []byte(d.text.src), inspect.Options{Model: w.modelOptions()})
	if !res.Loaded {
		return nil
	}
	return res
}

// inspectDiagnostics presents inspect's diagnostics: at their span in the
// document, or at the import that reads the file they are in.
func (w *workspace) inspectDiagnostics(d *document, res *inspect.Result) []Diagnostic {
	out := make([]Diagnostic, 0, len(res.Diagnostics))
	for _, di := range res.Diagnostics {
		out = append(out, w.inspectDiagnostic(d, di))
	}
	return out
}

func (w *workspace) inspectDiagnostic(d *document, di inspect.Diagnostic) Diagnostic {
	s := di.Span
	rng := Range{Start: d.text.at(s.Line, s.Column), End: d.text.at(s.EndLine, s.EndColumn)}
	msg := di.Message
	if !samePath(di.File, d.path) {
		rng = w.importRange(d, di.File)
		msg = fmt.Sprintf("in %s:%d:%d: %s", di.File, s.Line, s.Column, msg)
	}
	return Diagnostic{
		Range: rng, Severity: inspectSeverity(di.Severity), Code: di.Code, Source: "stateproof",
		CodeDescription: &CodeDescription{Href: docsBase + inspect.DocPath(di.Code)}, Message: msg,
	}
}

func inspectSeverity(s string) int {
	switch s {
	case inspect.SeverityError:
		return sevError
	case inspect.SeverityWarning:
		return sevWarning
	}
	return sevInfo
}

// codeAction offers the mechanical fixes of inspect's diagnostics in the
// range: delete a self-assignment (W_EFFECT_SELF_ASSIGN), delete the
// declaration of a variable nothing reads or writes (W_UNREFERENCED_VAR
// with a definition_delete_anchor; one that is assigned would leave the
// assignments undefined).
func (s *server) codeAction(ctx context.Context, p codeActionParams) (any, error) {
	out := []CodeAction{}
	d := s.ws.get(p.TextDocument.URI)
	if d == nil || d.lang != langFCSTM || s.ws.tooLarge(d.text) {
		return out, nil
	}
	res := s.ws.inspectDocument(d)
	if res == nil {
		return out, ctx.Err()
	}
	for _, di := range res.Diagnostics {
		title := ""
		switch {
		case !samePath(di.File, d.path):
		case di.Code == "W_EFFECT_SELF_ASSIGN":
			title = fmt.Sprintf("Delete the self-assignment of %v", di.Refs["var_name"])
		case di.Code == "W_UNREFERENCED_VAR" && di.Refs["definition_delete_anchor"] != nil:
			title = fmt.Sprintf("Delete the unused variable %v", di.Refs["var_name"])
		}
		diag := s.ws.inspectDiagnostic(d, di)
		if title == "" || !overlaps(diag.Range, p.Range) {
			continue
		}
		edit := TextEdit{Range: deletion(d.text, di.Span), NewText: ""}
		out = append(out, CodeAction{
			Title: title, Kind: "quickfix", Diagnostics: []Diagnostic{diag}, IsPreferred: true,
			Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{d.uri: {edit}}},
		})
	}
	return out, ctx.Err()
}

// deletion is the range that deletes a span: its whole lines when nothing
// but blanks shares them, else the span and the blanks after it.
func deletion(t *text, s inspect.Span) Range {
	from, to := t.runeOffset(s.Line, s.Column), t.runeOffset(s.EndLine, s.EndColumn)
	lineStart, _ := t.lineBounds(s.Line - 1)
	_, lineEnd := t.lineBounds(s.EndLine - 1)
	if strings.TrimSpace(t.src[lineStart:from]) == "" && strings.TrimSpace(t.src[to:lineEnd]) == "" {
		next, _ := t.lineBounds(s.EndLine) // the next line's start: the line break goes too
		return Range{Start: t.position(lineStart), End: t.position(next)}
	}
	for to < lineEnd && (t.src[to] == ' ' || t.src[to] == '\t') {
		to++
	}
	return Range{Start: t.position(from), End: t.position(to)}
}

// overlaps reports whether two ranges share a position; unlike overlap,
// an empty range (the cursor) at a range's edge touches it.
func overlaps(a, b Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}
