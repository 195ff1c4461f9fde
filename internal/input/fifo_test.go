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

// A named pipe without a writer blocks open(2) forever: ReadFile refuses
// it before opening, with and without a root (before, it never returned).
func TestReadFileFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "model.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, tc := range []struct {
		name string
		r    Reader
		path string
	}{{"no root", Reader{}, fifo}, {"root, relative", Reader{Root: root}, "model.json"}, {"root, absolute", Reader{Root: root}, fifo}} {
		done := make(chan error, 1)
		go func() { _, err := tc.r.ReadFile(tc.path); done <- err }()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) || !strings.Contains(err.Error(), "is a named pipe (FIFO)") {
				t.Errorf("%s: err = %v", tc.name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadFile blocked on a FIFO", tc.name)
		}
	}
}
