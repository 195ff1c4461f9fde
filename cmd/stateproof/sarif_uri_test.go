package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
)

// oddNames are model file names that are not URIs as typed: a space, '#'
// and '%', non-ASCII letters, and a colon that would read as a scheme.
var oddNames = []string{"dir with space/model #1 100%.json", "ünïcödé/模型.json", "c:model.json"}

// writeOddModels writes a broken model under each of oddNames in dir.
func writeOddModels(t *testing.T, dir string) {
	t.Helper()
	model, err := os.ReadFile("../../examples/broken/s7-peterson-no-flag.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range oddNames {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, model, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// artifactURIs collects every artifactLocation.uri of a SARIF log.
func artifactURIs(t *testing.T, data string) []string {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	var uris []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if a, ok := v["artifactLocation"].(map[string]any); ok {
				uri, _ := a["uri"].(string)
				uris = append(uris, uri)
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	return uris
}

// TestSARIFURIs: a model path with spaces, '#', '%', non-ASCII letters or
// a colon becomes a percent-encoded relative URI reference, an absolute
// one a file:// URI, and either parses back to the path.
func TestSARIFURIs(t *testing.T) {
	dir := t.TempDir()
	writeOddModels(t, dir)
	t.Chdir(dir)
	for _, name := range oddNames {
		abs := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(name)))
		for _, typed := range []string{name, abs} {
			out, errs, _ := runCLI(t, "verify", typed, "--format", "sarif")
			uris := artifactURIs(t, out)
			if len(uris) == 0 {
				t.Fatalf("%s: no artifact location in\n%s%s", typed, out, errs)
			}
			for _, uri := range uris {
				u, err := url.Parse(uri)
				switch {
				case err != nil:
					t.Errorf("%s: uri %q does not parse: %v", typed, uri, err)
				case typed == abs && (u.Scheme != "file" || u.Host != "" || u.Path != abs):
					t.Errorf("%s: uri %q is not a file URI of the path (%q %q)", typed, uri, u.Scheme, u.Path)
				case typed == name && (u.Scheme != "" || path.Clean(u.Path) != name || u.Fragment != "" || u.RawQuery != ""):
					t.Errorf("%s: uri %q is not a relative reference to the path (path %q)", typed, uri, u.Path)
				}
			}
		}
	}
}

// pascalName is a SARIF rule name: PascalCase, no underscores.
var pascalName = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// sarifLogs writes the SARIF logs of verify (odd relative and absolute
// paths, an invalid model), compose, bmc and prove into dir and returns
// their files.
func sarifLogs(t *testing.T, dir string) []string {
	t.Helper()
	writeOddModels(t, dir)
	runs := [][]string{
		{"verify", filepath.Join(dir, filepath.FromSlash(oddNames[0]))},
		{"verify", "../../examples/broken/invalid-typo.json"},
		{"verify", "../../examples/broken/s6-guard-hole.json"},
		{"compose", "../../examples/compose/handshake-client.json", "../../examples/compose/handshake-server.json", "--rendezvous", "req,ack"},
		{"bmc", "../../examples/order.json", "--check", `check forbid <= 6: active("SHIPPED");`},
		{"prove", "../../examples/fcstm/retry.fcstm", "--rsc", "../../examples/fcstm/retry-broken.rsc"},
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, filepath.Join(dir, filepath.FromSlash(oddNames[1])))
	if err != nil {
		t.Fatal(err)
	}
	runs = append(runs, []string{"verify", rel})
	var files []string
	for i, args := range runs {
		out, errs, _ := runCLI(t, append(args, "--format", "sarif")...)
		f := filepath.Join(dir, "log"+string(rune('a'+i))+".sarif")
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		var log sarifLog
		if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("%v: not a SARIF log (%v)\n%s%s", args, err, out, errs)
		}
		files = append(files, f)
	}
	return files
}

// TestSARIFRuleNames: every rule of every command's SARIF has a name, an
// identifier a user reads (PascalCase), that is not its id (SARIF1001).
func TestSARIFRuleNames(t *testing.T) {
	for _, f := range sarifLogs(t, t.TempDir()) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Rules []struct{ ID, Name string }
					}
				}
			}
		}
		if err := json.Unmarshal(data, &log); err != nil {
			t.Fatal(err)
		}
		rules := log.Runs[0].Tool.Driver.Rules
		if len(rules) == 0 {
			t.Errorf("%s: no rules", f)
		}
		for _, r := range rules {
			if !pascalName.MatchString(r.Name) || r.Name == r.ID {
				t.Errorf("%s: rule %s has name %q", f, r.ID, r.Name)
			}
		}
	}
}

// TestSARIFMultitool: the SARIF SDK's own validator, which checks more
// than the schema (URIs, rule names), finds no error and no warning in
// the logs of verify, compose, bmc and prove.
func TestSARIFMultitool(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the SARIF multitool takes seconds (and npm on first use)")
	}
	files := sarifLogs(t, t.TempDir())
	schematest.SARIFMultitool(t, files...)
}
