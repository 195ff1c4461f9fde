package lsp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// brokenFCSTM has two construction errors after non-ASCII text on their
// lines: their ranges must count UTF-16 units (C at 20, not rune 19 or
// byte 23).
const brokenFCSTM = "def int x = 0;\n" +
	"state Root {\n" +
	"    state A;\n" +
	"    state B;\n" +
	"    [*] -> A;\n" +
	"    /* 🙂 é */ A -> C : Go;\n" +
	"    /* 🙂 é */ B -> D;\n" +
	"}\n"

func fileURI(t *testing.T, dir, name, content string) (string, string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if content != "" {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pathURI(p), p
}

func TestDiagnosticsOpenAndIncrementalFix(t *testing.T) {
	s := startSession(t, Options{})
	uri, _ := fileURI(t, t.TempDir(), "m.fcstm", "")
	s.open(uri, "fcstm", brokenFCSTM)
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if len(p.Diagnostics) != 2 {
		t.Fatalf("want both construction errors, got %+v", p.Diagnostics)
	}
	for i, want := range []Range{rng(5, 20, 5, 21), rng(6, 20, 6, 21)} {
		d := p.Diagnostics[i]
		if d.Range != want || d.Code != "E_UNKNOWN_STATE" || d.Severity != sevError {
			t.Errorf("diagnostic %d = %+v, want E_UNKNOWN_STATE at %v", i, d, want)
		}
		if d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "docs/fcstm.md#errors") {
			t.Errorf("diagnostic %d links to %+v", i, d.CodeDescription)
		}
		if strings.Contains(d.Message, "m.fcstm:") || strings.Contains(d.Message, "[E_") {
			t.Errorf("diagnostic %d repeats its location or code: %q", i, d.Message)
		}
	}
	// Fix both with incremental edits, positioned in UTF-16 units.
	s.change(uri, 2, edit(rng(5, 20, 5, 21), "B"), edit(rng(6, 20, 6, 21), "A"))
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return p.Version != nil && *p.Version == 2 })
	if len(withoutInspect(p.Diagnostics)) != 0 {
		t.Fatalf("after the fix: %+v", p.Diagnostics)
	}
	if got := s.srv.ws.get(uri).text.src; !strings.Contains(got, "A -> B : Go;") || !strings.Contains(got, "B -> A;") {
		t.Fatalf("edited text:\n%s", got)
	}
}

func TestDiagnosticsLintAndImportErrors(t *testing.T) {
	dir := t.TempDir()
	fileURI(t, dir, "unit.fcstm", "state U {\n    state P;\n    [*] -> P;\n    P -> Q;\n}\n")
	uri, _ := fileURI(t, dir, "host.fcstm", "")
	s := startSession(t, Options{})
	s.open(uri, "fcstm", "state H {\n    state A;\n    state Dead;\n    import \"unit.fcstm\" as U;\n    [*] -> A;\n    A -> U;\n}\n")
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	var codes []string
	for _, d := range p.Diagnostics {
		codes = append(codes, d.Code)
		if d.Code == "E_UNKNOWN_STATE" && (d.Range.Start.Line != 3 || !strings.Contains(d.Message, "unit.fcstm:4:")) {
			t.Errorf("an error in the imported file is shown at the import: %+v", d)
		}
	}
	if len(codes) != 1 || codes[0] != "E_UNKNOWN_STATE" {
		t.Fatalf("codes %v", codes)
	}
	// A model that loads: the unreachable state is shown once, as
	// inspect's W_UNREACHABLE_STATE (it replaces the lint's
	// FCSTM_UNREACHABLE_STATE), at the state's name.
	s.change(uri, 2, map[string]any{"text": "state H {\n    state A;\n    state Dead;\n    [*] -> A;\n}\n"})
	p = s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 2 })
	if d := only(t, p.Diagnostics, "W_UNREACHABLE_STATE"); d.Range != rng(2, 10, 2, 14) || d.Severity != sevWarning {
		t.Fatalf("unreachable state: %+v", p.Diagnostics)
	}
}

// Rapid changes: every publish is for the text of its version, the
// versions never go back, and the last one published is the last sent.
func TestDiagnosticsNeverStale(t *testing.T) {
	s := startSession(t, Options{Debounce: 5 * time.Millisecond})
	uri, _ := fileURI(t, t.TempDir(), "m.fcstm", "")
	good := "state R {\n    state A;\n    [*] -> A;\n}\n"
	s.open(uri, "fcstm", good)
	const last = 40
	for v := 2; v <= last; v++ {
		text := good
		if v%2 == 1 {
			text = brokenFCSTM
		}
		s.change(uri, v, map[string]any{"text": text})
		if v%7 == 0 {
			time.Sleep(8 * time.Millisecond)
		}
	}
	s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == last })
	time.Sleep(100 * time.Millisecond)
	prev := 0
	for _, m := range s.notifications("textDocument/publishDiagnostics") {
		var p publishDiagnosticsParams
		if err := jsonUnmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if *p.Version < prev {
			t.Errorf("version %d published after %d", *p.Version, prev)
		}
		prev = *p.Version
		if broken := *p.Version%2 == 1 && *p.Version > 1; broken != (len(withoutInspect(p.Diagnostics)) > 0) {
			t.Errorf("version %d: %d diagnostics", *p.Version, len(p.Diagnostics))
		}
	}
	if prev != last {
		t.Errorf("last published version %d, want %d", prev, last)
	}
	// A run of an older sequence number never publishes.
	before := len(s.notifications("textDocument/publishDiagnostics"))
	s.srv.mu.Lock()
	old := s.srv.seq[uri] - 1
	s.srv.mu.Unlock()
	s.srv.runDiagnostics(uri, old)
	if after := len(s.notifications("textDocument/publishDiagnostics")); after != before {
		t.Error("a stale run published")
	}
}

func TestGarbageAndHugeInputs(t *testing.T) {
	s := startSession(t, Options{MaxInputBytes: 1000})
	s.raw([]byte("{not json"))
	m := s.wait("null")
	if m.Error == nil || m.Error.Code != codeParseError {
		t.Fatalf("garbage: %+v", m)
	}
	// A frame over the limit is skipped whole; the stream stays in step.
	s.raw([]byte(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"x":"` + strings.Repeat("a", 80000) + `"}}`))
	// Params of the wrong shape, unknown methods and unopened documents
	// are errors, never the end of the session.
	if err := s.call("textDocument/hover", map[string]any{"textDocument": 7}, nil); err == nil || err.Code != codeInvalidParams {
		t.Fatalf("bad params: %+v", err)
	}
	if err := s.call("no/such", map[string]any{}, nil); err == nil || err.Code != codeMethodNotFound {
		t.Fatalf("unknown method: %+v", err)
	}
	if err := s.call("textDocument/hover", positionParams{TextDocument: textDocumentIdentifier{"file:///nope.fcstm"}}, nil); err == nil {
		t.Fatal("hover of an unopened document")
	}
	if len(s.notifications("window/showMessage")) == 0 {
		t.Error("the skipped frame was not reported")
	}
	// A document over --max-input-bytes is kept but not analysed.
	uri := "file:///tmp/big.fcstm"
	s.open(uri, "fcstm", strings.Repeat("// filler\n", 150))
	p := s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if p.Diagnostics[0].Code != "LSP_TOO_LARGE" {
		t.Fatalf("big document: %+v", p.Diagnostics)
	}
	var syms []DocumentSymbol
	if err := s.call("textDocument/documentSymbol", documentParams{textDocumentIdentifier{uri}}, &syms); err != nil || len(syms) != 0 {
		t.Fatalf("outline of the big document: %v %+v", err, syms)
	}
	err := s.call("workspace/executeCommand", executeCommandParams{Command: cmdSimulate, Arguments: []jsonRaw{jsonRaw(`"` + uri + `"`)}}, nil)
	if err == nil || !strings.Contains(err.Message, "--max-input-bytes") {
		t.Fatalf("simulate of the big document: %+v", err)
	}
	// Garbage text of every language: diagnostics, no crash.
	for i, name := range []string{"g.fcstm", "g.json", "g.fbmcq", "g.rsc"} {
		u := "file:///tmp/garbage/" + name
		s.open(u, "", "\x00\xff{{{ state ->-> \"unterminated /* [[[")
		s.diagnostics(u, func(p publishDiagnosticsParams) bool { return true })
		_ = i
	}
	var hov any
	if err := s.call("textDocument/hover", positionParams{TextDocument: textDocumentIdentifier{"file:///tmp/garbage/g.fcstm"}}, &hov); err != nil {
		t.Fatalf("hover on garbage: %v", err)
	}
}

func TestPanicCancelAndBudget(t *testing.T) {
	block := func(ctx context.Context, _ []byte) (any, error) {
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond)
		return "late", nil
	}
	s := startSession(t, Options{RequestTimeout: 300 * time.Millisecond}, func(srv *server) {
		srv.handlers["test/panic"] = func(context.Context, jsonRaw) (any, error) { panic("boom") }
		srv.handlers["test/block"] = func(ctx context.Context, p jsonRaw) (any, error) { return block(ctx, p) }
	})
	if err := s.call("test/panic", map[string]any{}, nil); err == nil || err.Code != codeInternalError || !strings.Contains(err.Message, "boom") {
		t.Fatalf("panic: %+v", err)
	}
	id := s.start("test/block", map[string]any{})
	s.notify("$/cancelRequest", map[string]any{"id": mustAtoi(t, id)})
	if m := s.wait(id); m.Error == nil || m.Error.Code != codeRequestCancelled {
		t.Fatalf("cancel: %+v", m)
	}
	start := time.Now()
	err := s.call("test/block", map[string]any{}, nil)
	if err == nil || err.Code != codeRequestFailed || !strings.Contains(err.Message, "time budget") {
		t.Fatalf("budget: %+v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the budget of 300ms took %v", d)
	}
	// Still serving.
	var syms []DocumentSymbol
	uri := "file:///tmp/ok.fcstm"
	s.open(uri, "fcstm", "state R;\n")
	if err := s.call("textDocument/documentSymbol", documentParams{textDocumentIdentifier{uri}}, &syms); err != nil || len(syms) != 1 {
		t.Fatalf("after the bad requests: %v %+v", err, syms)
	}
}

func TestLifecycle(t *testing.T) {
	s := startSession(t, Options{})
	if err := s.call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.call("textDocument/documentSymbol", documentParams{}, nil); err == nil || err.Code != codeInvalidRequest {
		t.Fatalf("a request after shutdown: %+v", err)
	}
	s.notify("exit", nil)
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("exit after shutdown: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit")
	}

	s2 := startSession(t, Options{})
	s2.notify("exit", nil)
	if err := <-s2.done; !errors.Is(err, ErrExitWithoutShutdown) {
		t.Fatalf("exit without shutdown: %v", err)
	}
}

func TestNotInitialized(t *testing.T) {
	c, done := rawSession(t)
	m := c.wait(c.start("textDocument/hover", map[string]any{}))
	if m.Error == nil || m.Error.Code != codeServerNotInit {
		t.Fatalf("%+v", m)
	}
	_ = done
}

// Changes inside the debounce pause are analysed once, for the last text.
func TestDiagnosticsDebounced(t *testing.T) {
	s := startSession(t, Options{Debounce: 300 * time.Millisecond})
	uri := "file:///tmp/debounce.fcstm"
	s.open(uri, "fcstm", brokenFCSTM)
	for v := 2; v <= 10; v++ {
		s.change(uri, v, map[string]any{"text": brokenFCSTM})
	}
	s.diagnostics(uri, func(p publishDiagnosticsParams) bool { return *p.Version == 10 })
	time.Sleep(400 * time.Millisecond)
	if n := len(s.notifications("textDocument/publishDiagnostics")); n != 1 {
		t.Fatalf("%d publications for one pause in typing", n)
	}
}
