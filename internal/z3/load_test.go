package z3

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLazyForwardersCurrent: lazy.c forwards every Z3 function the binding
// calls, with the installed headers' signatures; regenerate with
// go generate ./internal/z3 when it fails.
func TestLazyForwardersCurrent(t *testing.T) {
	if _, err := os.Stat("/usr/include/z3.h"); err != nil {
		t.Skip("no /usr/include/z3.h (libz3-dev) to generate from")
	}
	out := filepath.Join(t.TempDir(), "lazy.c")
	cmd := exec.Command("go", "run", "genlazy.go", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("genlazy: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("lazy.c")
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != string(want) {
		t.Error("lazy.c is stale: run go generate ./internal/z3")
	}
}

// TestMissingLibrary runs the test binary again with STATEPROOF_LIBZ3
// naming a file that does not exist: NewContext must fail with
// ErrNotInstalled and the install hint, not crash the process.
func TestMissingLibrary(t *testing.T) {
	if os.Getenv("STATEPROOF_Z3_CHILD") == "1" {
		_, err := NewContext()
		if !errors.Is(err, ErrNotInstalled) {
			t.Fatalf("NewContext without libz3: %v", err)
		}
		if Version() != "" {
			t.Fatal("Version without libz3 is not empty")
		}
		os.Stdout.WriteString("child: " + err.Error() + "\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestMissingLibrary$", "-test.v")
	cmd.Env = append(os.Environ(), "STATEPROOF_Z3_CHILD=1", "STATEPROOF_LIBZ3="+filepath.Join(t.TempDir(), "no-libz3.so"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "child: libz3 is not installed") || !strings.Contains(string(out), "apt-get install libz3-4") {
		t.Errorf("child output lacks the install hint:\n%s", out)
	}
}

// TestLoadedVersion: with the library present the forwarders reach it.
func TestLoadedVersion(t *testing.T) {
	if v := Version(); !strings.HasPrefix(v, "4.") {
		t.Errorf("Version() = %q", v)
	}
}
