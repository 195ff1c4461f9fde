package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docBlock is one fenced ```json block of a document, with the attributes
// of its info string: ```json [before|after|machine] [triggers=A,B]
// [args=--flag,value] [rendezvous=a,b].
type docBlock struct {
	line  int
	role  string
	attrs map[string]string
	text  string
}

func jsonBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []docBlock
	var cur *docBlock
	var body strings.Builder
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```json"):
			cur = &docBlock{line: i + 1, attrs: map[string]string{}}
			for _, w := range strings.Fields(strings.TrimPrefix(line, "```json")) {
				if k, v, ok := strings.Cut(w, "="); ok {
					cur.attrs[k] = v
				} else {
					cur.role = w
				}
			}
			body.Reset()
		case cur != nil && strings.HasPrefix(line, "```"):
			cur.text = body.String()
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		}
	}
	return blocks
}

// findingCodes lists every finding code of a verify or compose report.
func findingCodes(t *testing.T, out string) map[string]bool {
	t.Helper()
	var rep struct {
		Checks []struct {
			Findings []struct {
				Code string `json:"code"`
			} `json:"findings"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out)
	}
	codes := map[string]bool{}
	for _, c := range rep.Checks {
		for _, f := range c.Findings {
			codes[f.Code] = true
		}
	}
	return codes
}

// TestModelsDocExamples runs every tiny model of docs/models.md that claims
// to trigger some finding codes, and checks that it does: verify for a
// plain block, verify --before-model for a before/after pair, compose for a
// run of machine blocks.
func TestModelsDocExamples(t *testing.T) {
	blocks := jsonBlocks(t, "../../docs/models.md")
	dir := t.TempDir()
	var before string
	var machines []string
	claimed := map[string]bool{}
	for i, b := range blocks {
		file := filepath.Join(dir, fmt.Sprintf("block%02d.json", i))
		if err := os.WriteFile(file, []byte(b.text), 0o644); err != nil {
			t.Fatal(err)
		}
		var args []string
		switch b.role {
		case "before":
			before = file
			continue
		case "after":
			if before == "" {
				t.Fatalf("models.md:%d: an after block needs a before block ahead of it", b.line)
			}
			args = []string{"verify", file, "--before-model", before, "--json"}
			before = ""
		case "machine":
			machines = append(machines, file)
			if b.attrs["triggers"] == "" {
				continue
			}
			args = append(append([]string{"compose"}, machines...), "--json")
			if r := b.attrs["rendezvous"]; r != "" {
				args = append(args, "--rendezvous", r)
			}
			machines = nil
		case "":
			args = []string{"verify", file, "--json"}
		default:
			t.Fatalf("models.md:%d: unknown block role %q", b.line, b.role)
		}
		if a := b.attrs["args"]; a != "" {
			args = append(args, strings.Split(a, ",")...)
		}
		if b.attrs["triggers"] == "" {
			t.Errorf("models.md:%d: a model block without triggers= is not checked", b.line)
			continue
		}
		out, errOut, _ := runCLI(t, args...)
		got := findingCodes(t, out)
		for _, code := range strings.Split(b.attrs["triggers"], ",") {
			claimed[code] = true
			if !got[code] {
				t.Errorf("models.md:%d: %s does not trigger %s (got %v) %s", b.line, strings.Join(args, " "), code, got, errOut)
			}
		}
	}
	// Every check family has at least one example that really triggers it.
	for _, check := range []string{"S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8",
		"A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A12", "A13", "A14", "A15",
		"D1", "D2", "D3", "D4", "C1", "C2"} {
		found := false
		for code := range claimed {
			if strings.HasPrefix(code, check+"_") {
				found = true
			}
		}
		if !found {
			t.Errorf("models.md has no example that triggers %s", check)
		}
	}
}
