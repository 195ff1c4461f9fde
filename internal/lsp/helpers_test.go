package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
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

// withoutInspect drops inspect's design diagnostics (W_... and I_...
// codes): what stays are the load errors and verify's lints.
func withoutInspect(ds []Diagnostic) []Diagnostic {
	var out []Diagnostic
	for _, d := range ds {
		if !strings.HasPrefix(d.Code, "W_") && !strings.HasPrefix(d.Code, "I_") {
			out = append(out, d)
		}
	}
	return out
}

// only returns the one diagnostic of code among ds, failing the test
// when there is none or more than one, or when a lint that inspect
// replaces (inspectTwin) is shown too.
func only(t *testing.T, ds []Diagnostic, code string) Diagnostic {
	t.Helper()
	var found []Diagnostic
	for _, d := range ds {
		if d.Code == code {
			found = append(found, d)
		}
		if inspectTwin(d.Code) != "" {
			t.Errorf("lint %s shown beside inspect's diagnostics: %+v", d.Code, ds)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d diagnostics %s among %+v", len(found), code, ds)
	}
	return found[0]
}
