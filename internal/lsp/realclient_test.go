package lsp

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain removes the binary the real-client tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtOnce.Load() {
		if bin, err := builtBinary(); err == nil {
			os.RemoveAll(filepath.Dir(bin))
		}
	}
	os.Exit(code)
}

// builtOnce says whether a test asked for the binary (TestMain must not
// build it just to remove it).
var builtOnce atomic.Bool

// builtBinary builds cmd/stateproof once per test process, so that the
// real-client tests drive the server exactly as an editor starts it.
var builtBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "stateproof-lsp-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "stateproof")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/stateproof/stateproof/cmd/stateproof")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{err, string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

func stateproofBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary (-short)")
	}
	builtOnce.Store(true)
	bin, err := builtBinary()
	if err != nil {
		t.Fatalf("go build: %v", err)
	}
	return bin
}

// brokenHost is navHost with an unknown target state on line 13 (0-based
// 12): `A -> Bx`, then fixed by an incremental change.
var brokenHost = strings.Replace(navHost, "A -> B : Go", "A -> Bx : Go", 1)

// startBinary starts `stateproof lsp` as a child process and returns a
// client on its stdin and stdout, and a channel that yields its exit.
func startBinary(t *testing.T, args ...string) (*client, <-chan error, *strings.Builder) {
	cmd := exec.Command(stateproofBinary(t), append([]string{"lsp"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	gone := make(chan struct{})
	go func() { exited <- cmd.Wait(); close(gone) }()
	t.Cleanup(func() {
		select {
		case <-gone:
		default:
			cmd.Process.Kill()
			<-gone
		}
	})
	return newClient(t, stdout, stdin), exited, stderr
}

// TestBinaryOverStdio starts `stateproof lsp` as a child process and
// speaks JSON-RPC to it over its stdin and stdout, as an editor does.
func TestBinaryOverStdio(t *testing.T) {
	dir := t.TempDir()
	unit, _ := fileURI(t, dir, "unit.fcstm", navUnit)
	host, _ := fileURI(t, dir, "host.fcstm", brokenHost)
	query, _ := fileURI(t, dir, "host.fbmcq", navQuery)
	c, exited, stderr := startBinary(t, "--debounce", "20ms")

	var init struct {
		Capabilities map[string]any
	}
	if err := c.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": pathURI(dir), "capabilities": map[string]any{}}, &init); err != nil {
		t.Fatal(err)
	}
	sync, _ := init.Capabilities["textDocumentSync"].(map[string]any)
	if sync["change"] != float64(2) || init.Capabilities["positionEncoding"] != "utf-16" {
		t.Fatalf("capabilities: %v", init.Capabilities)
	}
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": host, "languageId": "fcstm", "version": 1, "text": brokenHost}})

	p := c.diagnostics(host, func(p publishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "E_UNKNOWN_STATE" || p.Diagnostics[0].Range != rng(12, 9, 12, 11) {
		t.Fatalf("diagnostics of the broken model: %+v", p.Diagnostics)
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": host, "version": 2},
		"contentChanges": []any{edit(rng(12, 10, 12, 11), "")}})
	p = c.diagnostics(host, func(p publishDiagnosticsParams) bool { return p.Version != nil && *p.Version == 2 })
	if len(withoutInspect(p.Diagnostics)) != 0 {
		t.Fatalf("after the fix: %+v", p.Diagnostics)
	}
	// The command wires the server to stateproof fmt (internal/format).
	canFormat := init.Capabilities["documentFormattingProvider"] == true
	if !canFormat {
		t.Error("stateproof lsp does not advertise formatting")
	}
	binaryRequests(t, c, host, unit, query, canFormat)

	if err := c.call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	c.notify("exit", nil)
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after shutdown: %v\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not exit")
	}
}

// binaryRequests asks the fixed model for hover, definition into the
// import, references, rename, symbols, completion and formatting.
func binaryRequests(t *testing.T, c *client, host, unit, query string, canFormat bool) {
	at := func(line, char int) positionParams {
		return positionParams{TextDocument: textDocumentIdentifier{host}, Position: Position{line, char}}
	}
	var h Hover
	if err := c.call("textDocument/hover", at(12, 13), &h); err != nil || !strings.Contains(h.Contents.Value, "`/Go`") {
		t.Errorf("hover: %v %+v", err, h)
	}
	var locs []Location
	if err := c.call("textDocument/definition", at(13, 15), &locs); err != nil || len(locs) != 1 || locs[0].URI != unit || locs[0].Range != rng(1, 10, 1, 14) {
		t.Errorf("definition into the imported file: %v %+v", err, locs)
	}
	rp := referenceParams{positionParams: at(0, 8)}
	rp.Context.IncludeDeclaration = true
	if err := c.call("textDocument/references", rp, &locs); err != nil || len(locs) != 5 {
		t.Errorf("references: %v %+v", err, locs)
	}
	var we WorkspaceEdit
	if err := c.call("textDocument/rename", renameParams{positionParams: at(9, 10), NewName: "Busy"}, &we); err != nil || len(we.Changes[host]) != 3 || len(we.Changes[query]) != 1 {
		t.Errorf("rename: %v %+v", err, we)
	}
	var syms []DocumentSymbol
	if err := c.call("textDocument/documentSymbol", documentParams{textDocumentIdentifier{host}}, &syms); err != nil || len(syms) != 3 || len(syms[2].Children) != 5 {
		t.Errorf("symbols: %v %+v", err, syms)
	}
	var comp struct{ Items []CompletionItem }
	if err := c.call("textDocument/completion", at(12, 13), &comp); err != nil {
		t.Errorf("completion: %v", err)
	}
	found := false
	for _, it := range comp.Items {
		found = found || it.Label == "Go" && it.Kind == compEvent
	}
	if !found {
		t.Errorf("completion after ':' lacks the event Go: %+v", comp.Items)
	}
	if canFormat {
		var edits []TextEdit
		if err := c.call("textDocument/formatting", documentParams{textDocumentIdentifier{host}}, &edits); err != nil {
			t.Errorf("formatting: %v", err)
		}
	} else if err := c.call("textDocument/formatting", documentParams{textDocumentIdentifier{host}}, nil); err == nil || err.Code != codeMethodNotFound {
		t.Errorf("formatting without a formatter: %+v", err)
	}
}

// The process exits 1 on exit without shutdown, and when its input ends.
func TestBinaryExitStatus(t *testing.T) {
	for _, exit := range []bool{true, false} {
		c, exited, stderr := startBinary(t)
		if exit {
			c.notify("exit", nil)
		} else {
			c.w.(io.Closer).Close()
		}
		select {
		case err := <-exited:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("exit=%v: %v\n%s", exit, err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("exit=%v: the server did not exit", exit)
		}
	}
}
