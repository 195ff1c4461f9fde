package editortest

import (
	"archive/zip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// TestPackageVSIX packages the extension with editors/vscode/package.sh
// (npm ci, then the pinned @vscode/vsce) and checks the .vsix: the
// manifest, the client, the grammars, snippets and language configuration
// it names, and the language client library it requires. STATEPROOF_VSIX
// names an existing package to check instead. It takes a minute (npm ci),
// so -short skips it.
func TestPackageVSIX(t *testing.T) {
	root := repoRoot(t)
	trackExtension(t)
	vsix := os.Getenv("STATEPROOF_VSIX")
	if vsix == "" {
		if testing.Short() {
			t.Skip("-short: packaging the extension runs npm ci")
		}
		nodeTool(t, "npm")
		out := t.TempDir()
		cmd := exec.Command("bash", filepath.Join(root, "editors", "vscode", "package.sh"), out)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		if err != nil {
			if strings.Contains(stderr.String(), "ENOTFOUND") || strings.Contains(stderr.String(), "EAI_AGAIN") {
				browsertest.Unavailable(t, "package.sh could not reach the npm registry:\n%s", stderr.String())
			}
			t.Fatalf("package.sh: %v\n%s", err, stderr.String())
		}
		vsix = strings.TrimSpace(string(stdout))
	}
	var manifest struct {
		Version     string `json:"version"`
		Main        string `json:"main"`
		Contributes struct {
			Languages []struct {
				Configuration string `json:"configuration"`
			} `json:"languages"`
			Grammars []struct {
				Path string `json:"path"`
			} `json:"grammars"`
			Snippets []struct {
				Path string `json:"path"`
			} `json:"snippets"`
		} `json:"contributes"`
	}
	raw, err := os.ReadFile(filepath.Join(root, "editors", "vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	if want := "stateproof-" + manifest.Version + ".vsix"; filepath.Base(vsix) != want {
		t.Errorf("package %s, want %s", filepath.Base(vsix), want)
	}
	zr, err := zip.OpenReader(vsix)
	if err != nil {
		t.Fatalf("the .vsix is not a zip archive: %v", err)
	}
	defer zr.Close()
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	want := []string{
		"extension.vsixmanifest", "extension/package.json", "extension/server.js",
		"extension/" + clean(manifest.Main),
		"extension/node_modules/vscode-languageclient/package.json",
		"extension/node_modules/vscode-languageclient/node.js",
		"extension/node_modules/vscode-jsonrpc/package.json",
	}
	for _, l := range manifest.Contributes.Languages {
		want = append(want, "extension/"+clean(l.Configuration))
	}
	for _, g := range manifest.Contributes.Grammars {
		want = append(want, "extension/"+clean(g.Path))
	}
	for _, s := range manifest.Contributes.Snippets {
		want = append(want, "extension/"+clean(s.Path))
	}
	if len(manifest.Contributes.Grammars) != 3 || len(manifest.Contributes.Snippets) != 2 {
		t.Errorf("package.json contributes %d grammars and %d snippet files, want 3 and 2",
			len(manifest.Contributes.Grammars), len(manifest.Contributes.Snippets))
	}
	for _, name := range want {
		f, ok := files[name]
		if !ok {
			t.Errorf("%s: no %s", filepath.Base(vsix), name)
			continue
		}
		// The packaged file is the repository's, byte for byte.
		if rel, ok := strings.CutPrefix(name, "extension/"); ok && !strings.HasPrefix(rel, "node_modules/") {
			if got, want := readZip(t, f), readRepo(t, root, rel); got != want {
				t.Errorf("%s in the package differs from editors/vscode/%s", name, rel)
			}
		}
	}
	loadPackaged(t, zr.File)
	for name := range files {
		if strings.HasPrefix(name, "extension/test/") || strings.HasPrefix(name, "extension/node_modules/@vscode/vsce") {
			t.Errorf("%s: %s should not be packaged", filepath.Base(vsix), name)
		}
	}
}

// loadScript loads the packaged extension.js in Node with its packaged
// node_modules, the vscode module standing in (it exists only inside VS
// Code): the client library it requires must provide what it uses.
const loadScript = `
const Module = require('module');
const load = Module._load;
const stub = new Proxy(function () {}, { get: (t, k) => (k === '__esModule' ? false : stub) });
Module._load = function (request, ...rest) {
  return request === 'vscode' ? stub : load.call(this, request, ...rest);
};
const ext = require(process.argv[1] + '/extension.js');
const lc = require(process.argv[1] + '/node_modules/vscode-languageclient/node');
const problems = [];
if (typeof ext.activate !== 'function' || typeof ext.deactivate !== 'function') problems.push('extension.js lacks activate/deactivate');
if (typeof lc.LanguageClient !== 'function') problems.push('no LanguageClient');
if (!lc.TransportKind || lc.TransportKind.stdio === undefined) problems.push('no TransportKind.stdio');
if (!lc.ExecuteCommandRequest || lc.ExecuteCommandRequest.method !== 'workspace/executeCommand') problems.push('no ExecuteCommandRequest');
if (typeof lc.LanguageClient.prototype.getFeature !== 'function') problems.push('no LanguageClient.getFeature');
if (problems.length) { console.error(problems.join('\\n')); process.exit(1); }
`

func loadPackaged(t *testing.T, files []*zip.File) {
	t.Helper()
	node := nodeTool(t, "node")
	dir := t.TempDir()
	for _, f := range files {
		rel, ok := strings.CutPrefix(f.Name, "extension/")
		if !ok || strings.HasSuffix(f.Name, "/") {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if !strings.HasPrefix(dst, dir+string(filepath.Separator)) {
			t.Fatalf("%s escapes the package", f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, []byte(readZip(t, f)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(node, "-e", loadScript, dir).CombinedOutput(); err != nil {
		t.Errorf("the packaged extension does not load: %v\n%s", err, out)
	}
}

func clean(p string) string { return strings.TrimPrefix(p, "./") }

func readZip(t *testing.T, f *zip.File) string {
	t.Helper()
	r, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, 16<<20))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readRepo(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "editors", "vscode", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
