package lsp

import (
	"context"
	"encoding/json"
	"time"
)

// Commands the server executes (workspace/executeCommand).
const (
	cmdSimulate = "stateproof.simulate"
	cmdCheck    = "stateproof.checkQuery"
	cmdDraw     = "stateproof.draw"
	cmdGenerate = "stateproof.generate"
)

func (s *server) initialize(params json.RawMessage) any {
	s.mu.Lock()
	s.initialized = true
	s.mu.Unlock()
	s.ws.setFolders(params)
	caps := map[string]any{
		"positionEncoding": "utf-16",
		"textDocumentSync": map[string]any{
			"openClose": true,
			"change":    2, // incremental
		},
		"hoverProvider":          true,
		"definitionProvider":     true,
		"referencesProvider":     true,
		"documentSymbolProvider": true,
		"renameProvider":         true,
		"completionProvider": map[string]any{
			"triggerCharacters": []string{":", "/", ".", "\""},
		},
		"codeLensProvider": map[string]any{},
		"codeActionProvider": map[string]any{
			"codeActionKinds": []string{"quickfix"},
		},
		// The folders are where the importers of a renamed unit are
		// looked for; the client tells when they change.
		"workspace": map[string]any{
			"workspaceFolders": map[string]any{"supported": true, "changeNotifications": true},
		},
		"executeCommandProvider": map[string]any{
			"commands": []string{cmdSimulate, cmdCheck, cmdDraw, cmdGenerate},
		},
	}
	if s.opts.Format != nil {
		caps["documentFormattingProvider"] = true
	}
	return map[string]any{
		"capabilities": caps,
		"serverInfo":   map[string]any{"name": "stateproof"},
	}
}

func (s *server) requestHandlers() map[string]handler {
	return map[string]handler{
		"textDocument/hover":          withParams(s.hover),
		"textDocument/definition":     withParams(s.definition),
		"textDocument/references":     withParams(s.references),
		"textDocument/documentSymbol": withParams(s.documentSymbol),
		"textDocument/completion":     withParams(s.completion),
		"textDocument/rename":         withParams(s.rename),
		"textDocument/formatting":     withParams(s.formatting),
		"textDocument/codeLens":       withParams(s.codeLens),
		"textDocument/codeAction":     withParams(s.codeAction),
		"workspace/executeCommand":    withParams(s.executeCommand),
	}
}

// withParams decodes a request's params into P for f; undecodable params
// are the protocol's InvalidParams.
func withParams[P any](f func(ctx context.Context, p P) (any, error)) handler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, errorf(codeInvalidParams, "invalid params: %v", err)
		}
		return f(ctx, p)
	}
}

// changed schedules diagnostics for uri after the debounce pause, and for
// every other open FCSTM, query and RSC document, since a query or an
// importing model reads the changed one. uri "" schedules only the others.
func (s *server) changed(uri string) {
	for _, u := range s.ws.uris() {
		switch d := s.ws.get(u); {
		case u == uri:
			s.schedule(u, s.opts.debounce())
		case d != nil && d.lang != langJSON:
			// JSON models read no other file; the others may.
			s.schedule(u, 2*s.opts.debounce())
		}
	}
}

// schedule (re)starts uri's debounce timer. Each run takes a sequence
// number; only the latest run for a document may publish, so a slow run
// of old text never overwrites the diagnostics of newer text.
func (s *server) schedule(uri string, after time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	if t := s.timers[uri]; t != nil {
		t.Stop()
	}
	s.supersede(uri)
	seq := s.seq[uri]
	s.timers[uri] = time.AfterFunc(after, func() { s.runDiagnostics(uri, seq) })
}

// run is a diagnostics run in progress: cancel stops its analysis.
type run struct {
	seq    uint64
	cancel context.CancelFunc
}

// supersede numbers a new run of uri and stops the one running, whose
// answer could no longer be published. s.mu is held.
func (s *server) supersede(uri string) {
	s.seq[uri]++
	if r, ok := s.runs[uri]; ok {
		r.cancel()
		delete(s.runs, uri)
	}
}

func (s *server) current(uri string, seq uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.stopped && s.seq[uri] == seq
}

func (s *server) runDiagnostics(uri string, seq uint64) {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	doc := s.ws.get(uri)
	if doc == nil || !s.current(uri, seq) {
		return
	}
	ctx, cancel := context.WithTimeout(s.base, s.opts.timeout())
	defer cancel()
	s.mu.Lock()
	if s.seq[uri] != seq {
		s.mu.Unlock()
		return
	}
	s.runs[uri] = run{seq, cancel}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if r, ok := s.runs[uri]; ok && r.seq == seq {
			delete(s.runs, uri)
		}
		s.mu.Unlock()
	}()
	diags := s.ws.diagnose(ctx, doc)
	if !s.current(uri, seq) {
		return
	}
	v := doc.version
	s.mu.Lock()
	s.published[uri] = len(diags) > 0
	s.mu.Unlock()
	s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Version: &v, Diagnostics: diags})
	if doc.lang == langFCSTM {
		// Keep navigation's last index that parsed current, after the
		// diagnostics are out rather than before.
		s.ws.indexOf(doc)
	}
}

// clearDiagnostics removes a closed document's diagnostics from the
// client and forgets its pending run.
func (s *server) clearDiagnostics(uri string) {
	s.mu.Lock()
	if t := s.timers[uri]; t != nil {
		t.Stop()
		delete(s.timers, uri)
	}
	s.supersede(uri)
	shown := s.published[uri]
	delete(s.published, uri)
	s.mu.Unlock()
	if shown {
		s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
	}
}
