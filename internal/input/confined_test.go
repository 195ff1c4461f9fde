//go:build unix

package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadFileIn reads regular files inside its directory only, with and
// without a served root, and refuses without blocking or reading.
func TestReadFileIn(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "models")
	os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
	os.WriteFile(filepath.Join(top, "secret"), []byte("hunter2"), 0o644)
	os.WriteFile(filepath.Join(dir, "lib", "u.fcstm"), []byte("\xEF\xBB\xBFstate U;"), 0o644)
	os.Symlink(filepath.Join(top, "secret"), filepath.Join(dir, "out.fcstm"))
	os.Symlink("lib/u.fcstm", filepath.Join(dir, "in.fcstm"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.fcstm"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	readers := map[string]struct {
		r   Reader
		dir string
	}{
		"no root":          {Reader{}, dir},
		"served root":      {Reader{Root: root}, "models"},
		"served root, abs": {Reader{Root: root}, dir},
	}
	for name, rd := range readers {
		at := func(p string) string { return filepath.Join(rd.dir, p) }
		for _, p := range []string{"lib/u.fcstm", "in.fcstm"} {
			if data, err := rd.r.ReadFileIn(rd.dir, at(p)); err != nil || string(data) != "state U;" {
				t.Errorf("%s: %s = %q, %v; want the file without its BOM", name, p, data, err)
			}
		}
		refused := []struct{ path, msg string }{
			{at("../secret"), "outside the import root"},
			{at("out.fcstm"), "outside the import root"},
			{at("fifo.fcstm"), "is a named pipe (FIFO)"},
			{at("lib"), "is a directory"},
			{at("nope.fcstm"), "no such file"},
		}
		for _, tc := range refused {
			done := make(chan error, 1)
			go func() { _, err := rd.r.ReadFileIn(rd.dir, tc.path); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.msg) || strings.Contains(err.Error(), "hunter2") {
					t.Errorf("%s: %s: got %v, want an error containing %q", name, tc.path, err, tc.msg)
				}
				if strings.Contains(tc.msg, "outside") && !errors.Is(err, ErrOutsideRoot) {
					t.Errorf("%s: %s: %v does not wrap ErrOutsideRoot", name, tc.path, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: reading %s did not return within 5 s", name, tc.path)
			}
		}
	}
	// A relative root with an absolute path, and the other way round.
	t.Chdir(top)
	for _, c := range [][2]string{{"models", filepath.Join(dir, "lib", "u.fcstm")}, {dir, "models/lib/u.fcstm"}} {
		if _, err := (Reader{}).ReadFileIn(c[0], c[1]); err != nil {
			t.Errorf("ReadFileIn(%s, %s): %v", c[0], c[1], err)
		}
	}
	if _, err := (Reader{}).ReadFileIn("models", filepath.Join(top, "secret")); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("a relative root, an absolute path outside it: %v", err)
	}
	// The size limit holds.
	if _, err := (Reader{MaxBytes: 3}).ReadFileIn(dir, filepath.Join(dir, "lib", "u.fcstm")); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("over the limit: %v", err)
	}
}
