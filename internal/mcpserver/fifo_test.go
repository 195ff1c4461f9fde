//go:build unix

package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/input"
)

// A named pipe inside the served root is refused by every tool that reads
// a path, as a tool error (before, the call never answered, and neither
// cancel nor EOF ended it).
func TestFIFOInRootRefused(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"m.json", "m.fcstm"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := New("test", Config{Files: input.Reader{Root: root}}).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"verify", map[string]any{"path": "m.json"}},
		{"verify", map[string]any{"path": "m.fcstm"}},
		{"draw", map[string]any{"path": "m.json"}},
		{"show", map[string]any{"path": "m.json"}},
		{"simulate", map[string]any{"path": "m.fcstm", "cycles": []any{}}},
	} {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		cancel()
		if err != nil {
			t.Fatalf("%s %v: %v", tc.tool, tc.args, err)
		}
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if !strings.Contains(text, "is a named pipe (FIFO)") {
			t.Errorf("%s %v: error %v, content %q", tc.tool, tc.args, res.IsError, text)
		}
	}
}
