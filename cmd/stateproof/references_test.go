package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideDoc matches a pointer to a document outside the repository: the
// shared reference, its files by name, or a § section number.
var outsideDoc = regexp.MustCompile(`\.\./shared/[A-Za-z]+|§|\b(?:bmc|verify-checks|induction|fcstm|DESIGN)\.md\b`)

// TestNoOutsideReferences: documentation, help texts and code comments
// cite docs/… of this repository, never ../shared or § sections of
// documents a clone does not have. The one allowed mention is
// ../shared/fixtures in tests and benchmarks, which read that data (and
// skip with a message when it is absent); docs/fcstm.md is this
// repository's own page.
func TestNoOutsideReferences(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	checked := 0
	for _, f := range strings.Fields(string(out)) {
		if f == "cmd/stateproof/references_test.go" {
			continue // the patterns themselves
		}
		data, err := os.ReadFile(filepath.Join("../..", f))
		if err != nil {
			continue // deleted in the work tree
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue // a binary file (a built executable, an image)
		}
		checked++
		allowFixtures := strings.HasSuffix(f, "_test.go") || strings.HasPrefix(f, "bench/")
		for i, line := range strings.Split(string(data), "\n") {
			for _, loc := range outsideDoc.FindAllStringIndex(line, -1) {
				m := line[loc[0]:loc[1]]
				switch {
				case m == "../shared/fixtures" && allowFixtures:
					continue
				case m == "fcstm.md" && (strings.HasPrefix(f, "docs/") || strings.HasSuffix(line[:loc[0]], "docs/")):
					continue
				}
				t.Errorf("%s:%d: %q points outside the repository: cite docs/… instead\n\t%s", f, i+1, m, strings.TrimSpace(line))
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d files checked", checked)
	}
}
