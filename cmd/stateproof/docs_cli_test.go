package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/clidoc"
)

// TestCLIReferenceCurrent fails when docs/cli differs from what the cobra
// commands generate: regenerate with `go generate ./cmd/stateproof`.
func TestCLIReferenceCurrent(t *testing.T) {
	pages, err := clidoc.Pages(newRootCmd(io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	again, err := clidoc.Pages(newRootCmd(io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	for _, pat := range []string{"../../docs/cli/stateproof*", "../../docs/cli/man/stateproof*"} {
		m, _ := filepath.Glob(pat)
		for _, f := range m {
			onDisk = append(onDisk, strings.TrimPrefix(filepath.ToSlash(f), "../../docs/cli/"))
		}
	}
	var generated []string
	for rel, data := range pages {
		generated = append(generated, rel)
		if string(again[rel]) != string(data) {
			t.Errorf("%s: generation is not deterministic", rel)
		}
		have, err := os.ReadFile(filepath.Join("../../docs/cli", rel))
		if err != nil || string(have) != string(data) {
			t.Errorf("docs/cli/%s is stale: run go generate ./cmd/stateproof and commit the result", rel)
		}
	}
	slices.Sort(onDisk)
	slices.Sort(generated)
	if !slices.Equal(onDisk, generated) {
		t.Errorf("docs/cli holds %v, the commands generate %v: run go generate ./cmd/stateproof", onDisk, generated)
	}
	if len(generated) < 10 {
		t.Errorf("only %d pages generated", len(generated))
	}
}
