package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/stateproof/stateproof/internal/input"
)

// Options configures a Server.
type Options struct {
	// MaxInputBytes bounds every document and every file the server
	// reads (--max-input-bytes); <= 0 means input.DefaultMaxBytes.
	MaxInputBytes int64
	// ImportRoot is the directory FCSTM imports must stay inside
	// (--import-root); "" means each model's own directory.
	ImportRoot string
	// RequestTimeout is the time budget of one request and of one
	// analysis; <= 0 means 10 seconds.
	RequestTimeout time.Duration
	// Debounce is how long diagnostics wait for the typing to pause;
	// <= 0 means 150 ms.
	Debounce time.Duration
	// Format formats a document (stateproof fmt); nil means the server
	// does not offer formatting.
	Format func(name string, src []byte) ([]byte, error)
	// Log receives one line per problem the client cannot be told about
	// (a broken stream); nil discards them.
	Log io.Writer
}

func (o Options) limit() int64 { return input.Reader{MaxBytes: o.MaxInputBytes}.Limit() }

func (o Options) timeout() time.Duration {
	if o.RequestTimeout <= 0 {
		return 10 * time.Second
	}
	return o.RequestTimeout
}

func (o Options) debounce() time.Duration {
	if o.Debounce <= 0 {
		return 150 * time.Millisecond
	}
	return o.Debounce
}

// ErrExitWithoutShutdown is Serve's error when the client sent exit
// before shutdown (the protocol's exit code 1).
var ErrExitWithoutShutdown = errors.New("exit before shutdown")

// Serve runs one language server session over r and w (stdin and stdout)
// until the client sends exit or closes r.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	s := newServer(opts, w)
	defer s.stop()
	return s.loop(ctx, bufio.NewReaderSize(r, 64<<10))
}

// server is one session's state. The read loop applies document changes
// in order; requests run on their own goroutines and see the documents
// as they are when they run.
type server struct {
	opts Options
	conn *conn
	ws   *workspace

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	pending     map[string]context.CancelFunc // running requests by id
	timers      map[string]*time.Timer        // debounced diagnostics by uri
	seq         map[string]uint64             // latest diagnostics run per uri
	published   map[string]bool               // uris with diagnostics shown
	runs        map[string]run                // running diagnostics per uri
	handlers    map[string]handler
	stopped     bool
	wg          sync.WaitGroup
	// base is cancelled by stop: analyses in flight end at once.
	base       context.Context
	cancelBase context.CancelFunc
}

type handler func(ctx context.Context, params json.RawMessage) (any, error)

func newServer(opts Options, w io.Writer) *server {
	s := &server{
		opts:      opts,
		conn:      &conn{w: w},
		ws:        newWorkspace(opts),
		pending:   map[string]context.CancelFunc{},
		timers:    map[string]*time.Timer{},
		seq:       map[string]uint64{},
		published: map[string]bool{},
		runs:      map[string]run{},
	}
	s.handlers = s.requestHandlers()
	s.base, s.cancelBase = context.WithCancel(context.Background())
	return s
}

func (s *server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "stateproof lsp: "+format+"\n", args...)
	}
}

// stop cancels the running requests and pending diagnostics and waits
// for the request goroutines, so that Serve leaves nothing behind.
func (s *server) stop() {
	s.mu.Lock()
	s.stopped = true
	s.cancelBase()
	for _, c := range s.pending {
		c()
	}
	for _, t := range s.timers {
		t.Stop()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *server) loop(ctx context.Context, r *bufio.Reader) error {
	frames := &frameReader{r: r, limit: s.frameLimit()}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		body, err := frames.read()
		var big *errFrameTooLarge
		var bad *errBadFrame
		switch {
		case errors.As(err, &big):
			s.showError(big.Error())
			continue
		case errors.As(err, &bad):
			// No id to answer: the message's own framing is what broke.
			s.logf("a bad message header (%v): skipped to the next Content-Length header (docs/lsp.md#limits)", bad)
			continue
		case err == io.EOF:
			return io.ErrUnexpectedEOF
		case err != nil:
			return fmt.Errorf("reading a message: %w", err)
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			s.conn.reply(json.RawMessage("null"), nil, errorf(codeParseError, "not a JSON-RPC message: %v", err))
			continue
		}
		if m.Method == "exit" {
			if s.isShutdown() {
				return nil
			}
			return ErrExitWithoutShutdown
		}
		s.dispatch(ctx, &m)
	}
}

// frameLimit bounds one message: a document of MaxInputBytes sent whole,
// with JSON escaping (at most 6 bytes per byte) and room for the envelope.
func (s *server) frameLimit() int64 { return 6*s.opts.limit() + 64<<10 }

func (s *server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

func (s *server) showError(msg string) {
	s.conn.notify("window/showMessage", map[string]any{"type": 1, "message": "stateproof: " + msg})
}

// dispatch handles one message. Notifications run here, in order, so
// that every change is applied before the next message is read; a panic
// in one is recovered and reported, and the session goes on.
func (s *server) dispatch(ctx context.Context, m *message) {
	isRequest := len(m.ID) > 0 && string(m.ID) != "null"
	if m.Method == "" {
		return // a response to a request the server never sends
	}
	if !isRequest {
		defer func() {
			if r := recover(); r != nil {
				s.logf("panic in %s: %v\n%s", m.Method, r, debug.Stack())
				s.showError(fmt.Sprintf("internal error handling %s: %v", m.Method, r))
			}
		}()
		s.notification(m)
		return
	}
	s.mu.Lock()
	init, down := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case m.Method == "initialize" && init:
		s.conn.reply(m.ID, nil, errorf(codeInvalidRequest, "the server is already initialized"))
		return
	case m.Method == "initialize":
		s.conn.reply(m.ID, s.initialize(m.Params), nil)
		return
	case !init:
		s.conn.reply(m.ID, nil, errorf(codeServerNotInit, "the server is not initialized"))
		return
	case m.Method == "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.conn.reply(m.ID, nil, nil)
		return
	case down:
		s.conn.reply(m.ID, nil, errorf(codeInvalidRequest, "the server is shutting down"))
		return
	}
	h, ok := s.handlers[m.Method]
	if !ok {
		s.conn.reply(m.ID, nil, errorf(codeMethodNotFound, "method %q is not supported", m.Method))
		return
	}
	s.startRequest(ctx, m, h)
}

// startRequest runs h on its own goroutine under the time budget; a
// $/cancelRequest or the budget running out answers the request at once
// (the protocol's RequestCancelled, or an error naming the budget), and a
// panic in h is an internal error, never the end of the session.
func (s *server) startRequest(ctx context.Context, m *message, h handler) {
	rctx, cancel := context.WithTimeout(ctx, s.opts.timeout())
	key := string(m.ID)
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		cancel()
		return
	}
	s.pending[key] = cancel
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			delete(s.pending, key)
			s.mu.Unlock()
			cancel()
		}()
		type outcome struct {
			res any
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					s.logf("panic in %s: %v\n%s", m.Method, r, debug.Stack())
					done <- outcome{err: errorf(codeInternalError, "internal error in %s: %v", m.Method, r)}
				}
			}()
			res, err := h(rctx, m.Params)
			done <- outcome{res, err}
		}()
		select {
		case o := <-done:
			if rctx.Err() == context.Canceled {
				s.conn.reply(m.ID, nil, errorf(codeRequestCancelled, "%s was cancelled", m.Method))
				return
			}
			s.conn.reply(m.ID, o.res, o.err)
		case <-rctx.Done():
			if errors.Is(rctx.Err(), context.DeadlineExceeded) {
				s.conn.reply(m.ID, nil, errorf(codeRequestFailed, "%s did not finish within its time budget of %s (docs/lsp.md#limits)", m.Method, s.opts.timeout()))
				return
			}
			s.conn.reply(m.ID, nil, errorf(codeRequestCancelled, "%s was cancelled", m.Method))
		}
	}()
}

func (s *server) notification(m *message) {
	switch m.Method {
	case "initialized":
	case "$/cancelRequest":
		var p cancelParams
		if json.Unmarshal(m.Params, &p) == nil {
			s.mu.Lock()
			if c := s.pending[string(p.ID)]; c != nil {
				c()
			}
			s.mu.Unlock()
		}
	case "textDocument/didOpen":
		var p didOpenParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			s.showError("didOpen: " + err.Error())
			return
		}
		s.ws.open(p.TextDocument)
		s.changed(p.TextDocument.URI)
	case "textDocument/didChange":
		var p didChangeParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			s.showError("didChange: " + err.Error())
			return
		}
		if err := s.ws.change(p); err != nil {
			s.showError(err.Error())
		}
		s.changed(p.TextDocument.URI)
	case "workspace/didChangeWorkspaceFolders":
		if err := s.ws.changeFolders(m.Params); err != nil {
			s.showError("didChangeWorkspaceFolders: " + err.Error())
		}
	case "textDocument/didClose":
		var p didCloseParams
		if json.Unmarshal(m.Params, &p) == nil {
			s.ws.close(p.TextDocument.URI)
			s.clearDiagnostics(p.TextDocument.URI)
			s.changed("")
		}
	}
}
