// Package clidoc renders stateproof's command reference — Markdown pages and
// man pages — from its cobra command tree, deterministically (no dates, no
// "auto generated" lines), for docs/cli. The stateproof binary does not link
// it: only the gendocs build of cmd/stateproof and the tests use it.
package clidoc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// Pages renders the command reference of root: one Markdown page per
// command (docs/cli/*.md) and one man page per command (docs/cli/man/*.1),
// keyed by their path relative to the reference directory. The pages carry
// no date and no "auto generated" line, so regenerating an unchanged tree
// gives the same bytes (cmd/stateproof's TestCLIReferenceCurrent checks the copy in docs/cli).
func Pages(root *cobra.Command) (map[string][]byte, error) {
	disableAutoGenTag(root)
	dir, err := os.MkdirTemp("", "stateproof-cli-reference")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := doc.GenMarkdownTree(root, dir); err != nil {
		return nil, err
	}
	man := filepath.Join(dir, "man")
	if err := os.Mkdir(man, 0o755); err != nil {
		return nil, err
	}
	// A man page header needs a date; the zero time is replaced by an
	// empty field below so that the pages do not change with the calendar.
	header := &doc.GenManHeader{Title: "STATEPROOF", Section: "1", Source: "stateproof", Manual: "stateproof manual", Date: &time.Time{}}
	if err := doc.GenManTree(root, header, man); err != nil {
		return nil, err
	}
	pages := map[string][]byte{}
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		pages[filepath.ToSlash(rel)] = bytes.ReplaceAll(data, []byte(`"Jan 0001"`), []byte(`""`))
		return nil
	})
	return pages, err
}

func disableAutoGenTag(c *cobra.Command) {
	c.DisableAutoGenTag = true
	for _, sub := range c.Commands() {
		disableAutoGenTag(sub)
	}
}

// Write replaces the reference in dir with freshly generated pages.
func Write(dir string, root *cobra.Command) error {
	pages, err := Pages(root)
	if err != nil {
		return err
	}
	for _, sub := range []string{"", "man"} {
		old, _ := filepath.Glob(filepath.Join(dir, sub, "stateproof*"))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for rel, data := range pages {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("writing the command reference: %w", err)
		}
	}
	return nil
}
