package lsp

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer collects the server's log lines from its goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// unframed writes bytes to the server exactly as given, failing the test
// if the server stops reading instead.
func (s *session) unframed(t *testing.T, b string) {
	written := make(chan struct{})
	go func() {
		s.wmu.Lock()
		defer s.wmu.Unlock()
		s.w.Write([]byte(b))
		close(written)
	}()
	select {
	case <-written:
	case err := <-s.done:
		t.Fatalf("the server stopped: %v", err)
	}
}

// Every kind of broken header costs its own message only: the server logs
// it, answers nothing it cannot attribute, finds the next Content-Length
// header and answers the request after it.
func TestBadFramesResynchronise(t *testing.T) {
	var log lockedBuffer
	s := startSession(t, Options{MaxInputBytes: 1000, Log: &log})
	uri := "file:///tmp/frames.fcstm"
	s.open(uri, "fcstm", "state R;\n")
	body := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"no/such","params":{}}`, id)
	}
	cases := []struct{ name, frame string }{
		{"no Content-Length", "Content-Type: application/json\r\n\r\n" + body(901)},
		{"non-numeric", "Content-Length: abc\r\n\r\n" + body(902)},
		{"negative", "Content-Length: -5\r\n\r\n" + body(903)},
		{"overflowing", "Content-Length: 99999999999999999999999\r\n\r\n" + body(904)},
		// Read whole, this length would swallow every later message.
		{"huge", "Content-Length: 9000000000000000\r\n\r\n" + body(905)},
		{"line over 4 KB", "X-Junk: " + strings.Repeat("a", 5000) + "\r\n\r\n" + body(906)},
		{"line over the read buffer", "X-Junk: " + strings.Repeat("a", 100<<10) + "\r\n\r\n" + body(907)},
		{"not a header", "hello there\r\n\r\n" + body(908)},
		{"bare body", body(909)},
	}
	for _, c := range cases {
		s.unframed(t, c.frame)
		var syms []DocumentSymbol
		if err := s.call("textDocument/documentSymbol", documentParams{textDocumentIdentifier{uri}}, &syms); err != nil || len(syms) != 1 {
			t.Fatalf("after a bad frame (%s): %v %+v", c.name, err, syms)
		}
	}
	s.mu.Lock()
	for id := 901; id <= 909; id++ {
		if m := s.resp[fmt.Sprint(id)]; m != nil {
			t.Errorf("the body of a bad frame was answered: %+v", m)
		}
	}
	s.mu.Unlock()
	if n := strings.Count(log.String(), "skipped to the next Content-Length header"); n < len(cases)-1 {
		t.Errorf("%d bad frames logged:\n%s", n, log.String())
	}
}

func TestSecondInitialize(t *testing.T) {
	s := startSession(t, Options{})
	if err := s.call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err == nil || err.Code != codeInvalidRequest {
		t.Fatalf("a second initialize: %+v", err)
	}
	if err := s.call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.call("initialize", map[string]any{"capabilities": map[string]any{}}, nil); err == nil || err.Code != codeInvalidRequest {
		t.Fatalf("initialize after shutdown: %+v", err)
	}
	// Still serving: the lifecycle goes on to exit.
	if err := s.call("textDocument/hover", map[string]any{}, nil); err == nil || err.Code != codeInvalidRequest {
		t.Fatalf("a request after shutdown: %+v", err)
	}
}

// The marker is found wherever the reader's buffer splits it.
func TestSkipToAcrossBuffers(t *testing.T) {
	for pad := range 40 {
		in := strings.Repeat("x", pad) + "conTENT-length: 7\r\n"
		r := bufio.NewReaderSize(strings.NewReader(in), 16)
		if err := skipTo(r, contentLength); err != nil {
			t.Fatalf("pad %d: %v", pad, err)
		}
		if rest, _ := r.ReadString('\n'); rest != " 7\r\n" {
			t.Fatalf("pad %d: left %q", pad, rest)
		}
	}
	r := bufio.NewReaderSize(strings.NewReader(strings.Repeat("Content-Lengt", 10)), 16)
	if err := skipTo(r, contentLength); err == nil {
		t.Fatal("found a marker that is not there")
	}
}
