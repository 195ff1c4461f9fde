package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"
)

// client speaks the protocol to a server as an editor does: framed
// requests and notifications out, responses and notifications in.
type client struct {
	t     testing.TB
	w     io.Writer
	wmu   sync.Mutex
	next  int
	mu    sync.Mutex
	cond  *sync.Cond
	resp  map[string]*message
	notes []*message
	done  bool
}

func newClient(t testing.TB, r io.Reader, w io.Writer) *client {
	c := &client{t: t, w: w, resp: map[string]*message{}}
	c.cond = sync.NewCond(&c.mu)
	go func() {
		br := bufio.NewReader(r)
		for {
			body, err := readFrame(br, 1<<30, "")
			if err != nil {
				c.mu.Lock()
				c.done = true
				c.cond.Broadcast()
				c.mu.Unlock()
				return
			}
			var m message
			if err := json.Unmarshal(body, &m); err != nil {
				continue
			}
			c.mu.Lock()
			if m.Method == "" {
				c.resp[string(m.ID)] = &m
			} else {
				c.notes = append(c.notes, &m)
			}
			c.cond.Broadcast()
			c.mu.Unlock()
		}
	}()
	// Wake waiters now and then so that their deadlines are checked.
	go func() {
		for {
			time.Sleep(50 * time.Millisecond)
			c.mu.Lock()
			c.cond.Broadcast()
			stop := c.done
			c.mu.Unlock()
			if stop {
				return
			}
		}
	}()
	return c
}

func (c *client) send(m map[string]any) {
	m["jsonrpc"] = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		c.t.Fatal(err)
	}
	c.raw(body)
}

func (c *client) raw(body []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body))
	c.w.Write(body)
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

// start sends a request and returns its id without waiting.
func (c *client) start(method string, params any) string {
	c.mu.Lock()
	c.next++
	id := c.next
	c.mu.Unlock()
	c.send(map[string]any{"id": id, "method": method, "params": params})
	return strconv.Itoa(id)
}

// wait returns the response to id, failing the test after 20 s.
func (c *client) wait(id string) *message {
	deadline := time.Now().Add(20 * time.Second)
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.resp[id] == nil {
		if c.done || time.Now().After(deadline) {
			c.t.Fatalf("no response to request %s", id)
		}
		c.cond.Wait()
	}
	return c.resp[id]
}

// call sends a request and decodes its result into out (when not nil);
// it returns the response's error, if any.
func (c *client) call(method string, params, out any) *rpcError {
	m := c.wait(c.start(method, params))
	if m.Error != nil {
		return m.Error
	}
	if out != nil {
		if err := json.Unmarshal(m.Result, out); err != nil {
			c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
		}
	}
	return nil
}

// diagnostics waits for the first publishDiagnostics of uri, after the
// first `skip` notifications, that satisfies ok.
func (c *client) diagnostics(uri string, ok func(publishDiagnosticsParams) bool) publishDiagnosticsParams {
	deadline := time.Now().Add(20 * time.Second)
	c.mu.Lock()
	defer c.mu.Unlock()
	for seen := 0; ; {
		for ; seen < len(c.notes); seen++ {
			m := c.notes[seen]
			if m.Method != "textDocument/publishDiagnostics" {
				continue
			}
			var p publishDiagnosticsParams
			if json.Unmarshal(m.Params, &p) == nil && p.URI == uri && ok(p) {
				return p
			}
		}
		if c.done || time.Now().After(deadline) {
			c.t.Fatalf("no matching diagnostics for %s", uri)
		}
		c.cond.Wait()
	}
}

// notifications returns the notifications of method received so far.
func (c *client) notifications(method string) []*message {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*message
	for _, m := range c.notes {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// session is a server running in the test process.
type session struct {
	*client
	srv  *server
	in   *io.PipeWriter
	done chan error
}

func startSession(t testing.TB, opts Options, setup ...func(*server)) *session {
	t.Helper()
	return startSessionAt(t, opts, nil, setup...)
}

// startSessionAt starts a session whose initialize names the workspace
// root rootURI (nil: none).
func startSessionAt(t testing.TB, opts Options, rootURI any, setup ...func(*server)) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	if opts.Debounce == 0 {
		opts.Debounce = 10 * time.Millisecond
	}
	s := newServer(opts, outW)
	for _, f := range setup {
		f(s)
	}
	done := make(chan error, 1)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer s.stop()
		done <- s.loop(context.Background(), bufio.NewReader(inR))
		outW.Close()
	}()
	c := newClient(t, outR, inW)
	ss := &session{client: c, srv: s, in: inW, done: done}
	if err := c.call("initialize", map[string]any{"processId": nil, "rootUri": rootURI, "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.notify("initialized", map[string]any{})
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-finished:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return ss
}

func (s *session) open(uri, lang, text string) {
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": text}})
}

func (s *session) change(uri string, version int, changes ...map[string]any) {
	s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": changes})
}

func rng(l1, c1, l2, c2 int) Range {
	return Range{Start: Position{l1, c1}, End: Position{l2, c2}}
}

func edit(r Range, text string) map[string]any { return map[string]any{"range": r, "text": text} }
