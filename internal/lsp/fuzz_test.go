package lsp

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"testing"
	"time"
)

// FuzzServe feeds arbitrary bytes to a server as its input stream: it
// must end (at the end of the input) without a panic, whatever the
// framing, the JSON or the params.
func FuzzServe(f *testing.F) {
	frame := func(body string) string {
		return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}
	init := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	f.Add([]byte(init + frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.fcstm","languageId":"fcstm","version":1,"text":"state R { state A; [*] -> A; A -> A : Go; }"}}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.fcstm"},"position":{"line":0,"character":35}}}`)))
	f.Add([]byte(init + frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.fcstm","version":2},"contentChanges":[{"range":{"start":{"line":-1,"character":9},"end":{"line":0,"character":0}},"text":"x"}]}}`)))
	f.Add([]byte("Content-Length: 5\r\n\r\n{}{}{"))
	f.Add([]byte("Content-Length: -1\r\n\r\n"))
	f.Add([]byte(init + frame(`{"jsonrpc":"2.0","id":3,"method":"textDocument/rename","params":null}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newServer(Options{MaxInputBytes: 1 << 16, RequestTimeout: time.Second, Debounce: time.Millisecond}, io.Discard)
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.loop(context.Background(), bufio.NewReader(bytes.NewReader(data)))
			s.stop()
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not end with its input")
		}
	})
}
