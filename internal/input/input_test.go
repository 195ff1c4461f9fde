package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	if got, err := (Reader{MaxBytes: 10}).ReadFile(p); err != nil || string(got) != "0123456789" {
		t.Fatalf("at the limit: %q, %v", got, err)
	}
	_, err := Reader{MaxBytes: 9}.ReadFile(p)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 9 {
		t.Fatalf("over the limit: %v", err)
	}
}

// /dev/zero has no size and never ends: it is refused as a device instead
// of read until the process is killed.
func TestReadFileEndlessDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := Reader{MaxBytes: 1 << 16}.ReadFile("/dev/zero")
	var nr *NotRegularError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "/dev/zero is a device") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadFileStripsBOM(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.json")
	os.WriteFile(p, []byte("\xEF\xBB\xBF{}"), 0o644)
	if got, err := (Reader{}).ReadFile(p); err != nil || string(got) != "{}" {
		t.Fatalf("%q, %v", got, err)
	}
}

func TestReadFileUnderRoot(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.json")
	os.WriteFile(secret, []byte(`{"password":"hunter2"}`), 0o644)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok.json"), []byte("{}"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := os.Symlink(secret, filepath.Join(dir, "link.json")); err != nil {
		t.Skip(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	r := Reader{Root: root}
	for _, ok := range []string{"ok.json", "sub/../ok.json", filepath.Join(dir, "ok.json")} {
		if got, err := r.ReadFile(ok); err != nil || string(got) != "{}" {
			t.Errorf("%s: %q, %v", ok, got, err)
		}
	}
	rel, _ := filepath.Rel(dir, secret)
	for _, bad := range []string{"link.json", rel, secret, "../" + filepath.Base(outside) + "/secret.json", "sub"} {
		got, err := r.ReadFile(bad)
		if err == nil {
			t.Errorf("%s: read %q outside the root", bad, got)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: error echoes the contents: %v", bad, err)
		}
	}
}
