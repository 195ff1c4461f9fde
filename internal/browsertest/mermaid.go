package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// mermaidVersion is the Mermaid release the tests render with.
const mermaidVersion = "11"

// MermaidScript returns the path of the browser build of the real Mermaid
// package (mermaid.min.js), installing it from the npm registry into the
// user cache on first use.
func MermaidScript(t testing.TB) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "stateproof-test", "mermaid-"+mermaidVersion)
	script := filepath.Join(dir, "node_modules", "mermaid", "dist", "mermaid.min.js")
	if _, err := os.Stat(script); err == nil {
		return script
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		Unavailable(t, "no npm on PATH to install the mermaid package (apt-get install -y npm)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--no-save", "--silent", "mermaid@"+mermaidVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		Unavailable(t, "npm install mermaid@%s failed: %v\n%s", mermaidVersion, err, out)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("npm installed mermaid, but %s is missing", script)
	}
	return script
}
