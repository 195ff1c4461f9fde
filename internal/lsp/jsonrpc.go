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

// errFrameTooLarge is returned by readFrame for a body over the limit;
// the body has been skipped, so the stream stays in step.
type errFrameTooLarge struct{ size, limit int64 }

func (e *errFrameTooLarge) Error() string {
	return fmt.Sprintf("a message of %d bytes exceeds the limit of %d bytes (--max-input-bytes; docs/lsp.md#limits)", e.size, e.limit)
}

// readFrame reads one Content-Length framed body. A body longer than
// limit is read past without being kept (errFrameTooLarge); a malformed
// header is an error that ends the stream, since its framing is lost.
func readFrame(r *bufio.Reader, limit int64) ([]byte, error) {
	length := int64(-1)
	seen := 0
	for {
		line, err := r.ReadSlice('\n')
		seen += len(line)
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) || seen > maxHeaderBytes {
				return nil, fmt.Errorf("header longer than %d bytes", maxHeaderBytes)
			}
			if err == io.EOF && seen == 0 {
				return nil, io.EOF
			}
			return nil, err
		}
		if seen > maxHeaderBytes {
			return nil, fmt.Errorf("header longer than %d bytes", maxHeaderBytes)
		}
		s := strings.TrimRight(string(line), "\r\n")
		if s == "" {
			break
		}
		name, value, ok := strings.Cut(s, ":")
		if !ok {
			return nil, fmt.Errorf("malformed header line %q", clip(s))
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad Content-Length %q", clip(value))
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("message without Content-Length")
	}
	if length > limit {
		if _, err := io.CopyN(io.Discard, r, length); err != nil {
			return nil, err
		}
		return nil, &errFrameTooLarge{length, limit}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
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
