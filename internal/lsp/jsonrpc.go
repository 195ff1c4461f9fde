package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// JSON-RPC 2.0 error codes the server sends (the LSP specification's
// values).
const (
	codeParseError       = -32700
	codeInvalidRequest   = -32600
	codeMethodNotFound   = -32601
	codeInvalidParams    = -32602
	codeInternalError    = -32603
	codeServerNotInit    = -32002
	codeRequestFailed    = -32803
	codeRequestCancelled = -32800
)

// maxHeaderBytes bounds one header block: a client sends two short
// headers, so anything longer is garbage and must not grow a buffer.
const maxHeaderBytes = 4096

// message is any JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID, Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error object; it is also the error a handler
// returns to choose the code.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// errFrameTooLarge is a header announcing a body over the limit; the
// body is not read into memory but skipped as a bad frame's is.
type errFrameTooLarge struct{ size, limit int64 }

func (e *errFrameTooLarge) Error() string {
	return fmt.Sprintf("a message of %d bytes exceeds the limit of %d bytes (--max-input-bytes; docs/lsp.md#limits)", e.size, e.limit)
}

// errBadFrame is a header block no message can be framed by: no
// Content-Length, a length that is not a number or is negative, a line
// that is not a header, or more than maxHeaderBytes. next, when not "",
// is a Content-Length header found inside the bad line (a body sent
// without a header runs into the next message's header line).
type errBadFrame struct{ msg, next string }

func (e *errBadFrame) Error() string { return e.msg }

func badFrame(format string, args ...any) *errBadFrame {
	return &errBadFrame{msg: fmt.Sprintf(format, args...)}
}

// contentLength is the header every frame has; after a bad frame the
// reader looks for it to find where the next message starts.
const contentLength = "content-length:"

// frameReader reads Content-Length framed bodies. A bad or oversized
// header loses the framing; rather than ending the session, the next
// read skips to the next "Content-Length:" and goes on from there, so
// one broken message costs that message only.
type frameReader struct {
	r     *bufio.Reader
	limit int64
	lost  bool   // the last header was bad: resynchronise first
	next  string // a first header line already read
}

// read returns the next body. An *errBadFrame or *errFrameTooLarge
// leaves the reader usable; any other error is the stream's end.
func (f *frameReader) read() ([]byte, error) {
	first := f.next
	f.next = ""
	if f.lost {
		if err := skipTo(f.r, contentLength); err != nil {
			return nil, err
		}
		rest, err := f.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, badFrame("header longer than %d bytes", maxHeaderBytes)
		} else if err != nil {
			return nil, err
		}
		f.lost = false
		first = "Content-Length:" + string(rest)
	}
	body, err := readFrame(f.r, f.limit, first)
	var bad *errBadFrame
	var big *errFrameTooLarge
	switch {
	case errors.As(err, &bad) && bad.next != "":
		f.next = bad.next
	case bad != nil || errors.As(err, &big):
		f.lost = true
	}
	return body, err
}

// skipTo discards input up to and including the first occurrence of
// marker (ASCII, matched without regard to case), which may straddle
// the reader's buffer.
func skipTo(r *bufio.Reader, marker string) error {
	last := marker[len(marker)-1]
	var tail []byte // the last len(marker) bytes discarded
	for {
		chunk, err := r.ReadSlice(last)
		if len(chunk) >= len(marker) {
			tail = append(tail[:0], chunk[len(chunk)-len(marker):]...)
		} else {
			tail = append(tail, chunk...)
			if len(tail) > len(marker) {
				tail = tail[len(tail)-len(marker):]
			}
		}
		switch {
		case err == nil && len(tail) == len(marker) && strings.EqualFold(string(tail), marker):
			return nil
		case err != nil && !errors.Is(err, bufio.ErrBufferFull):
			return err
		}
	}
}

// readFrame reads one Content-Length framed body; first, when not "",
// is its first header line, already read. A header
// announcing more than limit bytes is an *errFrameTooLarge and one
// without a usable length an *errBadFrame; the stream is then out of
// step (frameReader resynchronises it).
func readFrame(r *bufio.Reader, limit int64, first string) ([]byte, error) {
	length := int64(-1)
	seen := len(first)
	for {
		line, err := []byte(first), error(nil)
		if first == "" {
			line, err = r.ReadSlice('\n')
			seen += len(line)
		}
		first = ""
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) || seen > maxHeaderBytes {
				return nil, badFrame("header longer than %d bytes", maxHeaderBytes)
			}
			if err == io.EOF && seen == 0 {
				return nil, io.EOF
			}
			return nil, err
		}
		if seen > maxHeaderBytes {
			return nil, badFrame("header longer than %d bytes", maxHeaderBytes)
		}
		s := strings.TrimRight(string(line), "\r\n")
		if s == "" {
			break
		}
		name, value, ok := strings.Cut(s, ":")
		if !ok || !isToken(strings.TrimSpace(name)) {
			bad := badFrame("malformed header line %q", clip(s))
			if i := indexFold(s, contentLength); i > 0 {
				bad.next = s[i:]
			}
			return nil, bad
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return nil, badFrame("bad Content-Length %q", clip(value))
			}
			length = n
		}
	}
	if length < 0 {
		return nil, badFrame("message without Content-Length")
	}
	if length > limit {
		return nil, &errFrameTooLarge{length, limit}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// indexFold is the index of ASCII marker in s, matched without regard
// to case, or -1.
func indexFold(s, marker string) int {
	for i := 0; i+len(marker) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(marker)], marker) {
			return i
		}
	}
	return -1
}

// isToken reports whether s can name a header (RFC 9110's token).
func isToken(s string) bool {
	for _, c := range []byte(s) {
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return s != ""
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// conn writes framed messages; writes from the handlers' goroutines are
// serialised so that frames never interleave.
type conn struct {
	mu sync.Mutex
	w  io.Writer
}

func (c *conn) write(m *message) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = c.w.Write(body)
	return err
}

func (c *conn) notify(method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return c.write(&message{Method: method, Params: raw})
}

func (c *conn) reply(id json.RawMessage, result any, err error) error {
	m := &message{ID: id}
	if err != nil {
		var re *rpcError
		if !errors.As(err, &re) {
			re = &rpcError{Code: codeRequestFailed, Message: err.Error()}
		}
		m.Error = re
		return c.write(m)
	}
	raw, merr := json.Marshal(result)
	if merr != nil {
		m.Error = &rpcError{Code: codeInternalError, Message: merr.Error()}
		return c.write(m)
	}
	m.Result = raw
	return c.write(m)
}
