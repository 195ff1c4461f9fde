package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawSession runs the server over a LineTransport and returns a function
// that sends one line and, when the line expects an answer, returns it.
func rawSession(t *testing.T, maxBytes int) (send func(line string, answered bool) map[string]any) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- New("test", Config{Files: repoFiles(t)}).Run(ctx, &LineTransport{In: inR, Out: outW, MaxBytes: maxBytes})
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop")
		}
	})
	answers := bufio.NewReader(outR)
	return func(line string, answered bool) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatalf("server stopped reading: %v", err)
		}
		if !answered {
			return nil
		}
		got, err := answers.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to %.40q: %v", line, err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(got), &m); err != nil {
			t.Fatalf("answer is not JSON: %q", got)
		}
		return m
	}
}

// A bad frame gets a JSON-RPC error and the session goes on: the next
// request is still answered.
func TestBadFramesKeepTheSession(t *testing.T) {
	send := rawSession(t, 4096)
	init := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, true)
	if init["result"] == nil {
		t.Fatalf("initialize: %v", init)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
	for name, frame := range map[string]string{
		"not JSON":   `hello, server`,
		"NUL bytes":  "{\"jsonrpc\":\"2.0\",\x00\"id\":2}",
		"too deep":   strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
		"too long":   `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`,
		"not a call": `{"x":1}`,
		"batch":      `[{"jsonrpc":"2.0","id":4,"method":"ping"}]`,
	} {
		ans := send(frame, true)
		e, _ := ans["error"].(map[string]any)
		if e == nil || e["code"] == nil {
			t.Errorf("%s: answer %v is not a JSON-RPC error", name, ans)
		}
		if msg, _ := e["message"].(string); strings.Contains(msg, "hello") || strings.Contains(msg, "xxxx") {
			t.Errorf("%s: the error echoes the frame: %q", name, msg)
		}
	}
	ans := send(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`, true)
	if ans["result"] == nil || ans["id"] != float64(9) {
		t.Errorf("session did not go on: %v", ans)
	}
}

// Paths are read under the served root only, and a refusal never shows
// what the file holds.
func TestPathsStayUnderTheRoot(t *testing.T) {
	served := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.json")
	os.WriteFile(secret, []byte("top-secret-words"), 0o644)
	os.WriteFile(filepath.Join(served, "notjson.json"), []byte("top-secret-words"), 0o644)
	os.Symlink(secret, filepath.Join(served, "link.json"))
	cs := connectServing(t, served)
	rel, _ := filepath.Rel(served, secret)
	for _, p := range []string{secret, rel, "link.json", "notjson.json"} {
		_, res := call(t, cs, "verify", map[string]any{"path": p})
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || strings.Contains(text, "top-secret") {
			t.Errorf("%s: error %v, text %q", p, res.IsError, text)
		}
	}
}

// Numeric arguments are refused exactly where the command line refuses
// them.
func TestArgumentsValidatedAsTheCLI(t *testing.T) {
	cs := connect(t)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"verify", map[string]any{"path": "examples/order.json", "maxStates": 0}, "maxStates must be"},
		{"verify", map[string]any{"path": "examples/order.json", "maxStates": -1}, "maxStates must be"},
		{"verify", map[string]any{"path": "examples/order.json", "maxStates": 1e12}, "maxStates"},
		{"verify", map[string]any{"path": "examples/order.json", "stateMapping": map[string]any{"A": "B"}}, "stateMapping needs beforeModel"},
		{"compose", map[string]any{"machines": []any{map[string]any{"path": "examples/order.json"}, map[string]any{"path": "examples/order.json"}}, "maxStates": 0}, "maxStates must be"},
		{"compose", map[string]any{"machines": []any{map[string]any{"path": "examples/order.json"}}}, "two or more machines"},
		{"bmc", map[string]any{"path": "examples/order.json", "query": `check reach <= 2: active("PAID");`, "timeoutMs": 0}, "timeoutMs must be"},
		{"bmc", map[string]any{"path": "examples/order.json", "query": `check reach <= 2: active("PAID");`, "explain": "why"}, "explain must be"},
	} {
		_, res := call(t, cs, c.tool, c.args)
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: error %v, %q", c.tool, c.args, res.IsError, text)
		}
	}
	out, _ := call(t, cs, "verify", map[string]any{"path": "examples/order.json", "maxStates": 50})
	if out["verdict"] == nil {
		t.Errorf("maxStates 50 refused: %v", out)
	}
}

// A request whose context is already cancelled does no work.
func TestCancelledRequestStops(t *testing.T) {
	s := &server{cfg: Config{Files: repoFiles(t)}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.verifyTool(ctx, nil, VerifyInput{Input: Input{Path: "examples/order.json"}}); err != context.Canceled {
		t.Errorf("verify: %v", err)
	}
	if _, _, err := s.bmcTool(ctx, nil, BMCInput{Input: Input{Path: "examples/order.json"}, Query: `check reach <= 2: active("PAID");`}); err != context.Canceled {
		t.Errorf("bmc: %v", err)
	}
}

// A request cancelled while bmc is unrolling or solving stops it: the
// query below runs for many seconds uncancelled (3000 frames); cancelled
// after 100 ms it must end far sooner, with the cancellation as its error.
func TestCancelledBMCStopsWhileRunning(t *testing.T) {
	s := &server{cfg: Config{Files: repoFiles(t)}}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, _, err := s.bmcTool(ctx, nil, BMCInput{Input: Input{Path: "examples/order.json"}, Query: `check reach <= 3000: active("DONE") && retry == 99;`})
	if err != context.Canceled {
		t.Fatalf("bmc: %v, want context.Canceled", err)
	}
	// Generous: the point is that the work stopped, not how fast.
	if elapsed := time.Since(start); elapsed > 30*time.Second {
		t.Errorf("a cancelled bmc request ran %v", elapsed)
	}
}

// A prove request cancelled while its layers run stops them: the RSC
// below is false only beyond 100000 retries, so no layer decides it and
// prove would run its whole 120 s budget; cancelled after 100 ms it must
// end far sooner, with the cancellation as its error.
func TestCancelledProveStopsWhileRunning(t *testing.T) {
	s := &server{cfg: Config{Files: repoFiles(t)}}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	budget := 120000
	start := time.Now()
	_, _, err := s.proveHandler(ctx, nil, ProveInput{
		Input:     Input{Path: "bench/retry-unbounded.json"},
		RSC:       `rsc "WAIT": retry <= 100000 || backoff != 2 * retry;`,
		TimeoutMS: &budget,
	})
	if err != context.Canceled {
		t.Fatalf("prove: %v, want context.Canceled", err)
	}
	// Generous: the point is that the work stopped, not how fast.
	if elapsed := time.Since(start); elapsed > 30*time.Second {
		t.Errorf("a cancelled prove request ran %v", elapsed)
	}
}
