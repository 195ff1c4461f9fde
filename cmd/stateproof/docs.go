package main

//go:generate go run -tags gendocs . ../../docs/cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// referencePages renders the command reference: one Markdown page per
// command (docs/cli/*.md) and one man page per command (docs/cli/man/*.1),
// keyed by their path relative to the reference directory. The pages carry
// no date and no "auto generated" line, so regenerating an unchanged tree
// gives the same bytes (TestCLIReferenceCurrent checks the copy in docs/).
func referencePages() (map[string][]byte, error) {
	root := newRootCmd(io.Discard, io.Discard)
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

// writeReference replaces the reference in dir with freshly generated pages.
func writeReference(dir string) error {
	pages, err := referencePages()
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
