package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/mcpserver"
)

// TestMCPHelpAndReadmeListTheTools: `mcp --help` and the README's mcp
// table list exactly the tools the server registers (mcpserver.Tools,
// which the server's own test compares with what a client sees).
func TestMCPHelpAndReadmeListTheTools(t *testing.T) {
	out, _, code := runCLI(t, "mcp", "--help")
	if code != 0 {
		t.Fatalf("mcp --help exit %d", code)
	}
	var want []string
	for _, tool := range mcpserver.Tools() {
		want = append(want, tool.Name)
		if !regexp.MustCompile(`(?m)^  ` + tool.Name + ` +`).MatchString(out) {
			t.Errorf("mcp --help does not list %s:\n%s", tool.Name, out)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	start := strings.Index(section, "## mcp: for coding agents")
	if start < 0 {
		t.Fatal("README has no mcp section")
	}
	section = section[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z]+)` \\|").FindAllStringSubmatch(section, -1) {
		listed = append(listed, m[1])
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("README mcp table lists %v, the server registers %v", listed, want)
	}
}
