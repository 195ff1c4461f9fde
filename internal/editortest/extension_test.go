package editortest

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestExtensionClient runs the Node tests of the extension's client
// (editors/vscode/test/*.test.js): finding the binary, the message when it
// is missing, what the language client starts, how the commands reach
// the server, and the language configurations. They use stand-ins for the VS Code API, so they need Node
// but no npm packages.
func TestExtensionClient(t *testing.T) {
	node := nodeTool(t, "node")
	trackExtension(t)
	dir := filepath.Join(repoRoot(t), "editors", "vscode")
	cmd := exec.Command(node, "--test", filepath.Join("test", "server.test.js"), filepath.Join("test", "extension.test.js"), filepath.Join("test", "config.test.js"))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
