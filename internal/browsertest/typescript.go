package browsertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// typescriptVersion is the TypeScript release the tests compile with.
const typescriptVersion = "5"

// TypeScriptCompiler returns the path of tsc from the npm registry's
// typescript package, installing it into the user cache on first use:
// aside and renamed, so that test binaries installing at the same time
// never run a half-installed one. No npm or node skips the test (fails it
// under CI=true).
func TypeScriptCompiler(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		Unavailable(t, "no node on PATH to run TypeScript (apt-get install -y npm)")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "stateproof-test", "typescript-"+typescriptVersion)
	tsc := filepath.Join(dir, "node_modules", ".bin", "tsc")
	if _, err := os.Stat(tsc); err == nil {
		return tsc
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		Unavailable(t, "no npm on PATH to install the typescript package (apt-get install -y npm)")
	}
	part := fmt.Sprintf("%s.part-%d", dir, os.Getpid())
	os.RemoveAll(part)
	cmd := exec.Command(npm, "install", "--prefix", part, "--no-audit", "--no-fund", "--silent", "typescript@"+typescriptVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(part)
		Unavailable(t, "npm install typescript@%s failed: %v\n%s", typescriptVersion, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(part, dir); err != nil {
		os.RemoveAll(part)
		if _, statErr := os.Stat(tsc); statErr != nil {
			t.Fatal(err)
		}
	}
	return tsc
}
