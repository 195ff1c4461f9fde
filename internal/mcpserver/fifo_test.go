//go:build unix

package mcpserver

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	cs := connectServing(t, dir)
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
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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
