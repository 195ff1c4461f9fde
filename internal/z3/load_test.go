package z3

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ebitengine/purego"
)

// TestAPICurrent: zapi.go declares every Z3 function and constant the
// binding uses, with the installed headers' signatures; regenerate with
// go generate ./internal/z3 when it fails.
func TestAPICurrent(t *testing.T) {
	if _, err := os.Stat("/usr/include/z3.h"); err != nil {
		t.Skip("no /usr/include/z3.h (libz3-dev) to generate from")
	}
	out := filepath.Join(t.TempDir(), "zapi.go")
	cmd := exec.Command("go", "run", "genapi.go", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("genapi: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("zapi.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != string(want) {
		t.Error("zapi.go is stale: run go generate ./internal/z3")
	}
}

// TestNotZ3Library: a shared library that is not libz3 (here the C
// library, which every Linux machine has) is refused with the missing
// entry point named and the install hint, never called.
func TestNotZ3Library(t *testing.T) {
	if os.Getenv("STATEPROOF_Z3_CHILD") == "1" {
		_, err := NewContext()
		if !errors.Is(err, ErrNotInstalled) {
			t.Fatalf("NewContext on libc: %v", err)
		}
		os.Stdout.WriteString("child: " + err.Error() + "\n")
		return
	}
	libc := "libc.so.6"
	if runtime.GOOS != "linux" {
		t.Skip("libc.so.6 is a Linux name")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestNotZ3Library$", "-test.v")
	cmd.Env = append(os.Environ(), "STATEPROOF_Z3_CHILD=1", "STATEPROOF_LIBZ3="+libc)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "libc.so.6 has no Z3_") || !strings.Contains(string(out), "apt-get install libz3-4") {
		t.Errorf("child output lacks the missing symbol or the hint:\n%s", out)
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

// libz3Handle opens libz3 (already loaded by the package, so only its
// reference count moves) for a test, and closes it at the end.
func libz3Handle(tb testing.TB) uintptr {
	if _, err := load(); err != nil {
		tb.Skip(err)
	}
	name := "libz3.so.4"
	if p := os.Getenv("STATEPROOF_LIBZ3"); p != "" {
		name = p
	}
	h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		tb.Skip(err)
	}
	tb.Cleanup(func() { purego.Dlclose(h) })
	return h
}

// TestResolveCheap: resolving the entry points, which every bmc and prove
// process does once at start, allocates a fixed few objects (dlsym's own
// address, a name buffer) — not a C string and a reflective call per
// symbol as purego.Dlsym does (that was ~0.2 ms of a 25 ms process) — and
// finds the same addresses.
func TestResolveCheap(t *testing.T) {
	h := libz3Handle(t)
	var l library
	allocs := testing.AllocsPerRun(5, func() {
		if sym := l.resolve(h); sym != "" {
			t.Fatalf("libz3 has no %s", sym)
		}
	})
	if allocs > 10 {
		t.Errorf("resolving %d entry points: %v allocations, want a fixed few (at most 10)", numEntryPoints, allocs)
	}
	for i, sym := range entryPoints {
		if want, err := purego.Dlsym(h, sym); err != nil || l.fn[i] != want {
			t.Errorf("%s resolved to %#x, dlsym says %#x (%v)", sym, l.fn[i], want, err)
		}
	}
}

// TestResolveMissing: a symbol the library lacks is named, not resolved to
// NULL and called later.
func TestResolveMissing(t *testing.T) {
	h, err := purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		t.Skip(err)
	}
	defer purego.Dlclose(h)
	var l library
	if sym := l.resolve(h); sym != entryPoints[0] {
		t.Errorf("resolve on libc = %q, want %q", sym, entryPoints[0])
	}
}

// BenchmarkResolve measures resolving every entry point of an open libz3
// (dlsym per symbol), the binding's own share of a process's start.
func BenchmarkResolve(b *testing.B) {
	h := libz3Handle(b)
	var l library
	b.ReportAllocs()
	for b.Loop() {
		l.resolve(h)
	}
}
