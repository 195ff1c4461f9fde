package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// lspClientPackage is the protocol library VS Code's language client is
// built on; the Node test drives the server with it.
const lspClientPackage = "vscode-languageserver-protocol@3.17.5"

// nodeModules returns a node_modules directory holding lspClientPackage,
// installed from the npm registry into the user cache on first use. No
// node or npm skips the test (fails it under CI=true).
func nodeModules(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		browsertest.Unavailable(t, "no node on PATH (apt-get install -y nodejs npm)")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "stateproof-test", strings.ReplaceAll(lspClientPackage, "@", "-"))
	mods := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(mods, "vscode-languageserver-protocol", "package.json")); err == nil {
		return mods
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		browsertest.Unavailable(t, "no npm on PATH to fetch %s (apt-get install -y npm)", lspClientPackage)
	}
	// Installed aside and renamed, so that test processes fetching at the
	// same time never see a half-installed tree.
	part := fmt.Sprintf("%s.part-%d", dir, os.Getpid())
	os.RemoveAll(part)
	cmd := exec.Command(npm, "install", "--silent", "--no-audit", "--no-fund", "--prefix", part, lspClientPackage)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(part)
		browsertest.Unavailable(t, "npm install %s failed: %v\n%s", lspClientPackage, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(part, dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(mods); statErr != nil {
			t.Fatal(err)
		}
		os.RemoveAll(part)
	}
	return mods
}

// TestNodeClient drives the built server with vscode-languageserver-protocol
// from Node (testdata/client.js).
func TestNodeClient(t *testing.T) {
	bin := stateproofBinary(t)
	mods := nodeModules(t)
	dir := t.TempDir()
	unit, _ := fileURI(t, dir, "unit.fcstm", navUnit)
	host, hostPath := fileURI(t, dir, "host.fcstm", brokenHost)
	query, _ := fileURI(t, dir, "host.fbmcq", navQuery)
	textFile := filepath.Join(t.TempDir(), "host.txt")
	if err := os.WriteFile(textFile, []byte(brokenHost), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "testdata/client.js", bin, hostPath, textFile)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client: %v\n%s", err, stderr.String())
	}
	var got struct {
		Change int
		Broken []struct {
			Code  string
			Range Range
			Href  string
		}
		Fixed      int
		Hover      string
		Definition []string
		References int
		Renamed    map[string]int
		Refused    string
		Symbols    []string
		Completion []string
		Exit       int
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Change != 2 {
		t.Errorf("sync kind %d", got.Change)
	}
	if len(got.Broken) != 1 || got.Broken[0].Code != "E_UNKNOWN_STATE" || got.Broken[0].Range != rng(12, 9, 12, 11) || !strings.HasSuffix(got.Broken[0].Href, "docs/fcstm.md#errors") {
		t.Errorf("diagnostics: %+v", got.Broken)
	}
	if got.Fixed != 0 {
		t.Errorf("%d diagnostics after the fix", got.Fixed)
	}
	if !strings.Contains(got.Hover, "`/Go`") {
		t.Errorf("hover %q", got.Hover)
	}
	if len(got.Definition) != 1 || got.Definition[0] != unit {
		t.Errorf("definition %v", got.Definition)
	}
	if got.References != 5 {
		t.Errorf("%d references", got.References)
	}
	if got.Renamed[host] != 3 || got.Renamed[query] != 1 {
		t.Errorf("rename %v", got.Renamed)
	}
	if !strings.Contains(got.Refused, "would not load") {
		t.Errorf("a rename onto a sibling's name: %q", got.Refused)
	}
	if !slices.Equal(got.Symbols, []string{"n", "level", "H"}) {
		t.Errorf("symbols %v", got.Symbols)
	}
	if !slices.Contains(got.Completion, "Go") {
		t.Errorf("completion %v", got.Completion)
	}
	if got.Exit != 0 {
		t.Errorf("exit %d", got.Exit)
	}
}
