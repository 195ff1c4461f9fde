package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxNesting bounds the nesting depth of one frame; deeper frames are
// answered with an error before any decoder sees them.
const MaxNesting = 512

// LineTransport is newline-delimited JSON-RPC over a reader and a writer
// (stdin and stdout for `stateproof mcp`) that survives bad frames: a line
// that is not one JSON-RPC message (not JSON, NUL bytes, nested deeper
// than MaxNesting, longer than MaxBytes) is answered with a JSON-RPC error
// and the session goes on, where the SDK's stdio transport would end it.
type LineTransport struct {
	In       io.Reader
	Out      io.Writer
	MaxBytes int // longest accepted line, in bytes
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{out: t.Out, incoming: make(chan readResult), closed: make(chan struct{})}
	go c.readLoop(bufio.NewReader(t.In), t.MaxBytes)
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type lineConn struct {
	writeMu   sync.Mutex
	out       io.Writer
	incoming  chan readResult
	closed    chan struct{}
	closeOnce sync.Once
}

// readLoop reads frames until the input ends, passing good messages on and
// answering bad ones itself.
func (c *lineConn) readLoop(in *bufio.Reader, max int) {
	for {
		line, tooLong, err := readLine(in, max)
		if err != nil {
			if len(bytes.TrimSpace(line)) == 0 {
				c.deliver(readResult{err: err})
				return
			}
			err = nil
		}
		if len(bytes.TrimSpace(line)) == 0 && !tooLong {
			continue
		}
		var msg jsonrpc.Message
		var code int64
		var problem string
		if tooLong {
			code, problem = jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than the limit of %d bytes", max)
		} else {
			msg, code, problem = decodeFrame(line)
		}
		if msg == nil {
			if werr := c.writeError(idOf(line, tooLong), code, problem); werr != nil {
				c.deliver(readResult{err: werr})
				return
			}
			continue
		}
		if !c.deliver(readResult{msg: msg}) {
			return
		}
	}
}

// readLine reads one line of at most max bytes (without the newline);
// tooLong reports a longer line, whose rest is consumed and dropped.
func readLine(in *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := in.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// decodeFrame decodes one JSON-RPC message, or says why the line is not
// one; the reason never quotes the line.
func decodeFrame(line []byte) (jsonrpc.Message, int64, string) {
	if bytes.IndexByte(line, 0) >= 0 {
		return nil, jsonrpc.CodeParseError, "message contains a NUL byte"
	}
	if depth(line) > MaxNesting {
		return nil, jsonrpc.CodeParseError, fmt.Sprintf("message nested deeper than %d levels", MaxNesting)
	}
	if !json.Valid(line) {
		return nil, jsonrpc.CodeParseError, "message is not valid JSON"
	}
	if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] == '[' {
		return nil, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported"
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, jsonrpc.CodeInvalidRequest, "not a JSON-RPC 2.0 request, notification or response"
	}
	return msg, 0, ""
}

// depth is the deepest nesting of arrays and objects in a JSON text
// (strings skipped), computed without building anything.
func depth(data []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			d++
			deepest = max(deepest, d)
		case b == ']' || b == '}':
			d--
		}
	}
	return deepest
}

// idOf is the id of a request that could not be decoded, when it can be
// read (JSON-RPC answers such errors with id null otherwise).
func idOf(line []byte, tooLong bool) any {
	if tooLong || !json.Valid(line) || depth(line) > MaxNesting {
		return nil
	}
	var probe struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil {
		return nil
	}
	switch probe.ID.(type) {
	case string, float64:
		return probe.ID
	}
	return nil
}

func (c *lineConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

func (c *lineConn) writeError(id any, code int64, msg string) error {
	data, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *lineConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// Close implements mcp.Connection; a read blocked on the input is left to
// end with it (stdin cannot be unblocked portably).
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: a stdio session has no id.
func (c *lineConn) SessionID() string { return "" }
