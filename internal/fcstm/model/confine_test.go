//go:build unix

package model

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// secret is the content of a file outside the model's tree; no error may
// quote any of it.
const secret = "TOPSECRETVALUE=hunter2\n"

// confinedTree makes dir/secret.txt (outside the tree) and dir/app (the
// model's directory) with a unit file inside it; it returns dir/app.
func confinedTree(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	app := filepath.Join(dir, "app")
	if err := os.MkdirAll(filepath.Join(app, "lib", "sub.fcstm"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "secret.txt"), secret)
	write(t, filepath.Join(app, "lib", "unit.fcstm"), "state U;")
	return dir, app
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadHost writes a host importing imp into app and loads it, failing the
// test when the load takes longer than a few seconds (a FIFO that blocks).
func loadHost(t *testing.T, app, imp string, opts Options) (*Model, error) {
	t.Helper()
	host := filepath.Join(app, "host.fcstm")
	write(t, host, "state R {\n    import \""+imp+"\" as P;\n    [*] -> P;\n}\n")
	type result struct {
		m   *Model
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := LoadWith(host, opts)
		done <- result{m, err}
	}()
	select {
	case r := <-done:
		return r.m, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("loading an import of %q did not return within 10 s", imp)
		return nil, nil
	}
}

func TestImportsStayInsideTheRoot(t *testing.T) {
	dir, app := confinedTree(t)
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(app, "link.fcstm")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(app, "lib", "unit.fcstm"), filepath.Join(app, "inside.fcstm")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(app, "fifo.fcstm"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ imp, code, msg string }{
		{"../secret.txt", "E_IMPORT_PATH", "leaves the import root"},
		{"lib/../../secret.txt", "E_IMPORT_PATH", "leaves the import root"},
		{"../../../../../../../../etc/passwd", "E_IMPORT_PATH", "leaves the import root"},
		{"/proc/self/environ", "E_IMPORT_PATH", "is absolute"},
		{filepath.Join(dir, "secret.txt"), "E_IMPORT_PATH", "is absolute"},
		{"link.fcstm", "E_IMPORT", "outside the import root"},
		{"fifo.fcstm", "E_IMPORT", "is a named pipe (FIFO)"},
		{"lib/sub.fcstm", "E_IMPORT", "is a directory"},
		{"lib", "E_IMPORT", "is a directory"},
		{".", "E_IMPORT", "is a directory"},
		{`lib/\x00unit.fcstm`, "E_IMPORT_PATH", "contains a control character"},
		{strings.Repeat("x/", 2100), "E_IMPORT_PATH", "longer than 4096 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.imp, func(t *testing.T) {
			_, err := loadHost(t, app, tc.imp, Options{})
			e := mustError(t, err)
			if e.Code != tc.code || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("got %s %q, want %s containing %q", e.Code, e.Msg, tc.code, tc.msg)
			}
			// Located at the import's file name: line 2, col 12.
			if e.File != filepath.Join(app, "host.fcstm") || e.Pos.Line != 2 || e.Pos.Col != 12 {
				t.Errorf("located at %s:%s, want the import statement's file name at 2:12", e.File, e.Pos)
			}
			// No entry of the list, nor its source snippet, quotes the target.
			for _, e := range err.(ast.ErrorList) {
				if d := e.Detail(); strings.Contains(d, "hunter2") || strings.Contains(d, "TOPSECRET") {
					t.Errorf("an error quotes the target's contents: %s", d)
				}
			}
		})
	}
	// Inside the root, through a link that stays inside, the import loads.
	for _, imp := range []string{"lib/unit.fcstm", "./lib/../lib/unit.fcstm", "inside.fcstm"} {
		if _, err := loadHost(t, app, imp, Options{}); err != nil {
			t.Errorf("import %q inside the root: %v", imp, err)
		}
	}
}

// A wider --import-root admits the file; it is not FCSTM, and the parse
// error echoes at most a capped token of it.
func TestImportRootOptionWidens(t *testing.T) {
	dir, app := confinedTree(t)
	long := strings.Repeat("A", 200)
	write(t, filepath.Join(dir, "other.fcstm"), "state O;")
	write(t, filepath.Join(dir, "env.fcstm"), long+"=1\n")
	if _, err := loadHost(t, app, "../other.fcstm", Options{ImportRoot: dir}); err != nil {
		t.Fatalf("import inside --import-root %s: %v", dir, err)
	}
	_, err := loadHost(t, app, "../env.fcstm", Options{ImportRoot: dir})
	mustError(t, err)
	var syntax *ast.Error
	for _, e := range err.(ast.ErrorList) {
		if e.Code == "E_SYNTAX" {
			syntax = e
		}
	}
	if syntax == nil || !strings.Contains(syntax.Msg, long[:20]) || strings.Contains(syntax.Detail(), long[:41]) {
		t.Errorf("got %v: want an E_SYNTAX echoing the start of the token, no more than 40 characters of it", err)
	}
}

func mustError(t *testing.T, err error) *ast.Error {
	t.Helper()
	e := firstError(err)
	if e == nil {
		t.Fatalf("want a located error, got %v", err)
	}
	return e
}
