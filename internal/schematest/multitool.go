package schematest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// SARIFMultitool fails the test unless the SARIF SDK's multitool
// (sarifPackage) validates each of files with no error and no warning:
// it checks what the schema cannot, such as URIs that are valid RFC 3986
// references (SARIF1002) and rule names that are not their ids
// (SARIF1001). The package is installed from the npm registry into the
// user cache on first use. No npm skips the test; npm without the
// registry skips it too, but fails it under CI=true.
func SARIFMultitool(t testing.TB, files ...string) {
	t.Helper()
	tool := multitool(t)
	out := filepath.Join(t.TempDir(), "validation.sarif")
	args := append([]string{"validate", "--output", out}, files...)
	cmd := exec.Command(tool, args...)
	// The multitool is a .NET program, which refuses to start on a
	// machine without ICU unless it runs culture-invariant.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	text, err := cmd.CombinedOutput()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		// Not started: another architecture than the package's x64 build.
		browsertest.Unavailable(t, "cannot run the SARIF multitool %s: %v", tool, err)
	}
	data, readErr := os.ReadFile(out)
	if readErr != nil {
		t.Fatalf("sarif multitool validate wrote no log (%v): %v\n%s", readErr, err, text)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("sarif multitool validation log: %v", err)
	}
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if r.Level == "" {
				r.Level = "warning" // SARIF's default level
			}
			if r.Level != "note" && r.Level != "none" {
				t.Errorf("sarif multitool: %s %s: %s", r.Level, r.RuleID, r.Message.Text)
			}
		}
	}
	if err != nil && !t.Failed() {
		t.Fatalf("sarif multitool validate: %v\n%s", err, text)
	}
}

// multitool returns the path of the installed multitool, installing it
// first: aside and renamed, so that test binaries installing at the same
// time never run a half-installed one.
func multitool(t testing.TB) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "stateproof-test", strings.NewReplacer("@", "", "/", "-").Replace(sarifPackage))
	tool := filepath.Join(dir, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	if _, err := os.Stat(tool); err == nil {
		return tool
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("no npm on PATH to install %s (apt-get install -y npm)", sarifPackage)
	}
	part := fmt.Sprintf("%s.part-%d", dir, os.Getpid())
	os.RemoveAll(part)
	cmd := exec.Command(npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", part, sarifPackage)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(part)
		browsertest.Unavailable(t, "npm install %s failed: %v\n%s", sarifPackage, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(part, dir); err != nil {
		os.RemoveAll(part)
		if _, statErr := os.Stat(tool); statErr != nil {
			t.Fatal(err)
		}
	}
	return tool
}
