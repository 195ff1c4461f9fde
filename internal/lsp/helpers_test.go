package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"testing"
)

type jsonRaw = json.RawMessage

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func mustAtoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// rawSession is a server without the initialize handshake.
func rawSession(t *testing.T) (*client, chan error) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := newServer(Options{}, outW)
	done := make(chan error, 1)
	go func() {
		defer s.stop()
		done <- s.loop(context.Background(), bufio.NewReader(inR))
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); <-done })
	return newClient(t, outR, inW), done
}
