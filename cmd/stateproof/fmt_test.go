package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	fmtMessy = "state R{state A;[*]->A;}\n"
	fmtClean = "state R {\n    state A;\n    [*] -> A;\n}\n"
)

// fmtDir writes files (name -> content, mode 0640) into a temporary
// directory and returns it.
func fmtDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFmtPrints: with a file and no flag, fmt prints the formatted text and
// leaves the file alone.
func TestFmtPrints(t *testing.T) {
	dir := fmtDir(t, map[string]string{"m.fcstm": fmtMessy})
	out, errOut, code := runCLI(t, "fmt", filepath.Join(dir, "m.fcstm"))
	if code != 0 || out != fmtClean || errOut != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "m.fcstm")); string(b) != fmtMessy {
		t.Errorf("the file changed without -w: %q", b)
	}
}

// TestFmtListAndDiff: -l lists the files that would change (a directory
// stands for its .fcstm and .fbmcq files), -d prints a unified diff, both
// exit 1 when something would change and 0 when nothing would.
func TestFmtListAndDiff(t *testing.T) {
	dir := fmtDir(t, map[string]string{
		"a.fcstm": fmtMessy, "sub/b.fcstm": fmtClean, "sub/q.fbmcq": "check reach<=2:x>1;\n", "sub/r.rsc": "rsc \"A\": x > 1;\n",
		"notes.txt": "state R{", ".hidden/c.fcstm": fmtMessy,
	})
	out, errOut, code := runCLI(t, "fmt", "-l", dir)
	want := filepath.Join(dir, "a.fcstm") + "\n" + filepath.Join(dir, "sub/q.fbmcq") + "\n"
	if code != 1 || out != want || errOut != "" {
		t.Fatalf("fmt -l: code %d, stdout %q (want %q), stderr %q", code, out, want, errOut)
	}
	out, _, code = runCLI(t, "fmt", "-d", filepath.Join(dir, "sub/q.fbmcq"))
	q := filepath.Join(dir, "sub/q.fbmcq")
	wantDiff := "--- " + q + ".orig\n+++ " + q + "\n@@ -1 +1 @@\n-check reach<=2:x>1;\n+check reach <= 2: x > 1;\n"
	if code != 1 || out != wantDiff {
		t.Fatalf("fmt -d: code %d, stdout:\n%s\nwant:\n%s", code, out, wantDiff)
	}
	out, _, code = runCLI(t, "fmt", "-l", "-d", filepath.Join(dir, "sub/b.fcstm"))
	if code != 0 || out != "" {
		t.Fatalf("fmt -l -d on a formatted file: code %d, stdout %q", code, out)
	}
}

// TestFmtWrite: -w rewrites only the files that change, keeps their mode
// and leaves no temporary file behind.
func TestFmtWrite(t *testing.T) {
	dir := fmtDir(t, map[string]string{"a.fcstm": fmtMessy, "b.fcstm": fmtClean})
	before, _ := os.Stat(filepath.Join(dir, "b.fcstm"))
	_, errOut, code := runCLI(t, "fmt", "-w", dir)
	if code != 0 || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.fcstm")); string(b) != fmtClean {
		t.Errorf("a.fcstm = %q", b)
	}
	st, _ := os.Stat(filepath.Join(dir, "a.fcstm"))
	if st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	after, _ := os.Stat(filepath.Join(dir, "b.fcstm"))
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("b.fcstm was already formatted but was rewritten")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files left in the directory: %v", entries)
	}
}

// TestFmtWriteThroughLinks: -w on a symbolic link formats the target and
// leaves the link a link; a file with two hard links is rewritten in place,
// so both names see the formatted text (issue 38 item 8.12: the link was
// replaced by a regular file and the target left as it was).
func TestFmtWriteThroughLinks(t *testing.T) {
	dir := fmtDir(t, map[string]string{"target.fcstm": fmtMessy, "hard.fcstm": fmtMessy})
	link := filepath.Join(dir, "link.fcstm")
	if err := os.Symlink("target.fcstm", link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	other := filepath.Join(dir, "other-name.fcstm")
	if err := os.Link(filepath.Join(dir, "hard.fcstm"), other); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	for _, name := range []string{link, other} {
		if _, errOut, code := runCLI(t, "fmt", "-w", name); code != 0 || errOut != "" {
			t.Fatalf("fmt -w %s: code %d, stderr %q", name, code, errOut)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.fcstm is no longer a symbolic link (%v)", err)
	}
	for _, name := range []string{"target.fcstm", "link.fcstm", "hard.fcstm", "other-name.fcstm"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != fmtClean {
			t.Errorf("%s = %q, want the formatted text", name, b)
		}
	}
	a, _ := os.Stat(filepath.Join(dir, "hard.fcstm"))
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Errorf("the two hard links were split into two files")
	}
	if st, _ := os.Stat(other); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("files left in the directory: %v", entries)
	}
}

// TestFmtErrors: a file that does not parse is reported at its position
// and exits 2 (the other files are still formatted); unknown extensions
// and -w on standard input are refused.
func TestFmtErrors(t *testing.T) {
	dir := fmtDir(t, map[string]string{"bad.fcstm": "state R {\n    state A\n}\n", "ok.fcstm": fmtMessy, "m.json": "{}"})
	out, errOut, code := runCLI(t, "fmt", "-l", filepath.Join(dir, "bad.fcstm"), filepath.Join(dir, "ok.fcstm"))
	if code != 2 || !strings.Contains(errOut, filepath.Join(dir, "bad.fcstm")+":3:1: expected") || out != filepath.Join(dir, "ok.fcstm")+"\n" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "fmt", filepath.Join(dir, "m.json")); code != 2 || !strings.Contains(errOut, "not an FCSTM") {
		t.Errorf("a .json file: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "fmt", "-w"); code != 2 || !strings.Contains(errOut, "needs files") {
		t.Errorf("-w without files: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "fmt", "--lang", "json", filepath.Join(dir, "ok.fcstm")); code != 2 || !strings.Contains(errOut, "--lang") {
		t.Errorf("--lang json: code %d, stderr %q", code, errOut)
	}
}

// TestFmtStdin: without a file fmt formats standard input, in the
// language --lang names; -l names it "<standard input>".
func TestFmtStdin(t *testing.T) {
	for _, c := range []struct {
		args     []string
		in, want string
		code     int
	}{
		{[]string{"fmt"}, fmtMessy, fmtClean, 0},
		{[]string{"fmt", "--lang", "fbmcq"}, "check reach<=2:x>1;", "check reach <= 2: x > 1;\n", 0},
		{[]string{"fmt", "--lang", "rsc"}, "rsc \"A\":x>1;", "rsc \"A\": x > 1;\n", 0},
		{[]string{"fmt", "-l"}, fmtMessy, "<standard input>\n", 1},
	} {
		var out, errb bytes.Buffer
		root := newRootCmd(&out, &errb)
		root.SetIn(strings.NewReader(c.in))
		root.SetArgs(c.args)
		err := root.Execute()
		code := 0
		if ee, ok := err.(*exitError); ok {
			code = ee.code
		} else if err != nil {
			code = -1
		}
		if code != c.code || out.String() != c.want {
			t.Errorf("%v: code %d (err %v), stdout %q, want %d %q", c.args, code, err, out.String(), c.code, c.want)
		}
	}
}

// TestFmtDiffMatchesPatch: the -d output of a larger change applies with
// patch(1) when that is installed (the diff format is checked by a tool
// that reads it, not by this package's own reading).
func TestFmtDiffMatchesPatch(t *testing.T) {
	src, err := os.ReadFile("../../examples/fcstm/retry.fcstm")
	if err != nil {
		t.Fatal(err)
	}
	messy := strings.NewReplacer("    ", "  ", " = ", "=", "-> ", "->").Replace(string(src))
	dir := fmtDir(t, map[string]string{"r.fcstm": messy})
	path := filepath.Join(dir, "r.fcstm")
	diff, _, code := runCLI(t, "fmt", "-d", path)
	if code != 1 || !strings.Contains(diff, "@@ ") {
		t.Fatalf("code %d, diff %q", code, diff)
	}
	formatted, _, _ := runCLI(t, "fmt", path)
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("patch is not installed; the diff was not applied")
	}
	cmd := exec.Command(patch, "-s", "-o", "-", path)
	cmd.Stdin = strings.NewReader(diff)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, io.Discard
	if err := cmd.Run(); err != nil {
		t.Fatalf("patch: %v\n%s", err, diff)
	}
	if stdout.String() != formatted {
		t.Errorf("the patched file differs from fmt's output:\n%s", stdout.String())
	}
}

// TestUnifiedDiff: hunks with three lines of context, separate hunks for
// changes far apart, and the marker for a last line without a newline.
func TestUnifiedDiff(t *testing.T) {
	if d := unifiedDiff("a", "b", "x\n", "x\n"); d != "" {
		t.Errorf("equal texts: %q", d)
	}
	lines := func(s ...string) string { return strings.Join(s, "\n") + "\n" }
	a := lines("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12")
	b := lines("1", "two", "3", "4", "5", "6", "7", "8", "9", "10", "eleven", "12")
	want := "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+eleven\n 12\n"
	if d := unifiedDiff("a", "b", a, b); d != want {
		t.Errorf("got:\n%s\nwant:\n%s", d, want)
	}
	want = "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n"
	if d := unifiedDiff("a", "b", "x", "x\n"); d != want {
		t.Errorf("got:\n%q\nwant:\n%q", d, want)
	}
}
