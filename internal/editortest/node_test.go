package editortest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// tokenizerPackages are the npm packages VS Code itself tokenises with,
// pinned so that a test run is repeatable.
var tokenizerPackages = []string{"vscode-textmate@9.3.2", "vscode-oniguruma@2.0.1"}

// repoRoot is the repository's top directory, seen from this package.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root not found from the test directory: %v", err)
	}
	return root
}

// trackExtension reads every file of editors/vscode (but node_modules)
// from the test process. Node reads them, not Go: without this, go test
// would cache a result across a change of a grammar or of extension.js,
// since it only sees the files the test binary itself opens.
func trackExtension(t testing.TB) {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "editors", "vscode")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			_, err = os.ReadFile(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// nodeTool finds node or npm, or skips (fails under CI=true).
func nodeTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		browsertest.Unavailable(t, "no %s on PATH for the editor tests (apt-get install -y npm)", name)
	}
	return p
}

// tokenizerModules returns a directory whose node_modules holds the
// tokenizer packages, installed from the npm registry into the user cache
// on first use.
func tokenizerModules(t testing.TB) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "stateproof-test", "vscode-textmate-9.3.2-oniguruma-2.0.1")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-oniguruma", "release", "onig.wasm")); err == nil {
		return dir
	}
	npm := nodeTool(t, "npm")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	// Installed aside and renamed, so that test binaries installing at
	// the same time never see a half-installed directory.
	part, err := os.MkdirTemp(filepath.Dir(dir), ".part-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(part)
	args := append([]string{"install", "--prefix", part, "--no-audit", "--no-fund", "--no-save", "--silent"}, tokenizerPackages...)
	if out, err := exec.Command(npm, args...).CombinedOutput(); err != nil {
		browsertest.Unavailable(t, "npm install %v failed: %v\n%s", tokenizerPackages, err, out)
	}
	if err := os.Rename(part, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// spec is the input of editors/vscode/test/tokenize.js.
type spec struct {
	Grammars []grammarRef `json:"grammars"`
	Files    []fileRef    `json:"files"`
	Texts    []textRef    `json:"texts"`
}

type grammarRef struct {
	Scope string `json:"scope"`
	Path  string `json:"path"`
}

type fileRef struct {
	Path  string `json:"path"`
	Scope string `json:"scope"`
}

type textRef struct {
	Name  string `json:"name"`
	Scope string `json:"scope"`
	Text  string `json:"text"`
}

// token is one token as the script reports it: 1-based line and column
// (UTF-16 units, as VS Code counts them), its text and its scope stack.
type token struct {
	Line   int      `json:"line"`
	Col    int      `json:"col"`
	Text   string   `json:"text"`
	Scopes []string `json:"scopes"`
}

func (k token) String() string {
	return fmt.Sprintf("%d:%d %q %v", k.Line, k.Col, k.Text, k.Scopes)
}

type result struct {
	Files []struct {
		Path     string  `json:"path"`
		Tokens   int     `json:"tokens"`
		Problems []token `json:"problems"`
	} `json:"files"`
	Texts []struct {
		Name   string  `json:"name"`
		Tokens []token `json:"tokens"`
	} `json:"texts"`
}

// languages maps a file extension to its grammar's scope and file name.
var languages = map[string]struct{ scope, grammar string }{
	".fcstm": {"source.fcstm", "fcstm.tmLanguage.json"},
	".fbmcq": {"source.fbmcq", "fbmcq.tmLanguage.json"},
	".rsc":   {"source.rsc", "rsc.tmLanguage.json"},
}

// tokenize runs the extension's grammars over the files and texts.
func tokenize(t testing.TB, files []fileRef, texts []textRef) result {
	t.Helper()
	node := nodeTool(t, "node")
	modules := tokenizerModules(t)
	root := repoRoot(t)
	trackExtension(t)
	s := spec{Files: files, Texts: texts}
	for _, l := range languages {
		s.Grammars = append(s.Grammars, grammarRef{l.scope, filepath.Join(root, "editors", "vscode", "syntaxes", l.grammar)})
	}
	in, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(root, "editors", "vscode", "test", "tokenize.js"), modules)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tokenize.js: %v\n%s", err, stderr.String())
	}
	var r result
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("tokenize.js output: %v", err)
	}
	if len(r.Files) != len(files) || len(r.Texts) != len(texts) {
		t.Fatalf("tokenize.js answered for %d files and %d texts, asked %d and %d", len(r.Files), len(r.Texts), len(files), len(texts))
	}
	return r
}
