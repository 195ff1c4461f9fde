package lsp

import (
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/inspect"
)

// twinsModel raises each problem both verify's lints and inspect report:
// an aspect on a leaf, a duplicate combo event, a constant-false guard,
// an unreachable state; and an info.
const twinsModel = `def int x = 0;
state R {
    state A {
        >> during before { x = 1; }
    }
    state B;
    state C;
    state P { state In; [*] -> In; In -> In :: Tick; }
    [*] -> A;
    A -> B :: Go + Go;
    A -> C : if [1 > 2];
    B -> A :: Back;
    C -> A;
    B -> P :: Work;
    P -> P :: Again;
    P -> A :: Done;
}
`

// TestInspectDiagnostics: an open FCSTM document gets inspect's
// diagnostics, each with its code, a link to its section of
// docs/inspect.md, its severity and its span; a problem the lints report
// too is shown once, as inspect's.
func TestInspectDiagnostics(t *testing.T) {
	s := startSession(t, Options{})
	uri, path := fileURI(t, t.TempDir(), "m.fcstm", "")
	s.open(uri, "fcstm", twinsModel)
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	res := inspect.Source(path, []byte(twinsModel), inspect.Options{})
	if len(res.Diagnostics) == 0 {
		t.Fatal("inspect reports nothing on the model")
	}
	tx := newText(twinsModel)
	for _, di := range res.Diagnostics {
		sp := di.Span
		want := Range{Start: tx.at(sp.Line, sp.Column), End: tx.at(sp.EndLine, sp.EndColumn)}
		i := slices.IndexFunc(p.Diagnostics, func(d Diagnostic) bool { return d.Code == di.Code && d.Range == want })
		if i < 0 {
			t.Errorf("%s at %v is not shown", di.Code, want)
			continue
		}
		d := p.Diagnostics[i]
		if d.Message != di.Message || d.CodeDescription == nil ||
			d.CodeDescription.Href != docsBase+"docs/inspect.md#"+strings.ToLower(di.Code) || d.Severity != inspectSeverity(di.Severity) {
			t.Errorf("%s: %+v, want range %v, message %q", di.Code, d, want, di.Message)
		}
	}
	for _, code := range []string{"W_UNREACHABLE_STATE", "W_GUARD_CONST_FALSE", "W_COMBO_DUPLICATE_EVENT", "W_ASPECT_NO_DESCENDANT_LEAF"} {
		only(t, p.Diagnostics, code) // and no lint twin
	}
	if d := only(t, p.Diagnostics, "I_TRANSITION_TO_SELF_VIA_PARENT"); d.Severity != sevInfo {
		t.Errorf("an info has severity %d", d.Severity)
	}

	// A suppression comment hides the problem; the lint does not come back.
	ignored := strings.Replace(twinsModel, "state C;", "state C; // stateproof:ignore W_UNREACHABLE_STATE kept for a later slice", 1)
	s.change(uri, 2, map[string]any{"text": ignored})
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 2 })
	for _, d := range p.Diagnostics {
		if strings.Contains(d.Code, "UNREACHABLE_STATE") {
			t.Errorf("suppressed, still shown: %+v", d)
		}
	}

	// A model that does not load shows its load errors once.
	s.change(uri, 3, map[string]any{"text": "state R { state A; state A; [*] -> A; }\n"})
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 3 })
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "E_DUPLICATE_STATE" {
		t.Errorf("load error: %+v", p.Diagnostics)
	}
}

const fixModel = `def int spare = 0;
def int count = 0;
def int kept = 0;
state R {
    state A;
    state B;
    [*] -> A;
    A -> B :: Go effect {
        count = count;
        kept = 1;
    }
    B -> A :: Back effect { count = count + 1; }
    A -> A : if [count > 2];
}
`

// TestInspectQuickFixes: a quick fix deletes a self-assignment and the
// declaration of a variable nothing reads or writes; applied, the model
// still loads and the diagnostic is gone. A variable that is assigned
// gets no fix (deleting it would leave its assignments undefined).
func TestInspectQuickFixes(t *testing.T) {
	s := startSession(t, Options{})
	uri, path := fileURI(t, t.TempDir(), "m.fcstm", "")
	s.open(uri, "fcstm", fixModel)
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	var unfixable Diagnostic
	for _, d := range p.Diagnostics {
		if d.Code == "W_WRITE_ONLY_VAR" {
			unfixable = d
		}
	}
	if unfixable.Code == "" {
		t.Fatalf("no W_WRITE_ONLY_VAR for kept: %+v", p.Diagnostics)
	}
	for _, tc := range []struct {
		code string
		line int
		want string
	}{
		{"W_EFFECT_SELF_ASSIGN", 8, "    A -> B :: Go effect {\n        kept = 1;\n    }\n"},
		{"W_UNREFERENCED_VAR", 0, "def int count = 0;\n"},
	} {
		i := slices.IndexFunc(p.Diagnostics, func(d Diagnostic) bool { return d.Code == tc.code && d.Range.Start.Line == tc.line })
		if i < 0 {
			t.Fatalf("no %s on line %d: %+v", tc.code, tc.line, p.Diagnostics)
		}
		d := p.Diagnostics[i]
		var actions []CodeAction
		// The cursor at the diagnostic's start asks for its fixes.
		if err := s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": Range{Start: d.Range.Start, End: d.Range.Start}, "context": map[string]any{"diagnostics": []Diagnostic{d}}}, &actions); err != nil {
			t.Fatal(err)
		}
		if len(actions) != 1 || actions[0].Kind != "quickfix" || len(actions[0].Diagnostics) != 1 || actions[0].Diagnostics[0].Code != tc.code {
			t.Fatalf("%s: actions %+v", tc.code, actions)
		}
		edits := actions[0].Edit.Changes[uri]
		if len(edits) != 1 || edits[0].NewText != "" {
			t.Fatalf("%s: edits %+v", tc.code, actions[0].Edit)
		}
		next, err := newText(fixModel).apply(contentChange{Range: &edits[0].Range, Text: ""})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(next.src, "def int count") && tc.line == 0 || !strings.Contains(next.src, tc.want) || len(next.src) >= len(fixModel) {
			t.Errorf("%s: fixed text\n%s", tc.code, next.src)
		}
		res := inspect.Source(path, []byte(next.src), inspect.Options{})
		if !res.Loaded || slices.ContainsFunc(res.Diagnostics, func(x inspect.Diagnostic) bool { return x.Code == tc.code && x.Span.Line == tc.line+1 }) {
			t.Errorf("%s: after the fix %+v", tc.code, res.Diagnostics)
		}
	}
	var actions []CodeAction
	if err := s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": unfixable.Range,
		"context": map[string]any{"diagnostics": []Diagnostic{}}}, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 0 {
		t.Errorf("a fix offered on kept's line: %+v", actions)
	}
}

// TestLintDiagnosticFromRegistry: a lint only verify reports keeps its
// code, and takes its severity and its link (its own section of
// docs/inspect.md) from the registry of codes.
func TestLintDiagnosticFromRegistry(t *testing.T) {
	s := startSession(t, Options{})
	uri, _ := fileURI(t, t.TempDir(), "m.fcstm", "")
	s.open(uri, "fcstm", "state R {\n    state A;\n    pseudo state P;\n    [*] -> A;\n    A -> P :: Go;\n}\n")
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	d := only(t, p.Diagnostics, "FCSTM_PSEUDO_DEAD_END")
	c, ok := inspect.Lookup("FCSTM_PSEUDO_DEAD_END")
	if !ok || d.CodeDescription == nil || d.CodeDescription.Href != docsBase+"docs/inspect.md#fcstm_pseudo_dead_end" || d.Severity != inspectSeverity(c.Severity) {
		t.Errorf("%+v", d)
	}
}
