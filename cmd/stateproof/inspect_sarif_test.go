package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
)

// inspectSARIFModel reports warnings of several codes and an info.
const inspectSARIFModel = `def int unused = 0;
state Root {
    state A;
    state B;
    state Orphan;
    state Busy {
        state In;
        [*] -> In;
        In -> In :: Tick;
    }
    [*] -> A;
    A -> B :: Go;
    B -> A :: Back;
    A -> Busy :: Work;
    Busy -> Busy :: Reset;
    Busy -> A :: Done;
}
`

// inspectSARIFDoc is the part of an inspect SARIF log the tests read.
type inspectSARIFDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID, Name        string
					FullDescription struct{ Text string }
					Help            struct{ Text, Markdown string }
					HelpURI         string `json:"helpUri"`
				}
			}
		}
		Results []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI string }
					Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
				}
			}
		}
	}
}

// TestInspectSARIF: one rule per code reported, named in PascalCase (not
// the id), described and linked to the code's section of docs/inspect.md;
// one result per diagnostic at its span, with the level of its severity,
// at a URI reference to the file; the log satisfies the SARIF schema.
// A model that does not load gives its load errors as error results.
func TestInspectSARIF(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	name := "odd dir #1/m 100%.fcstm"
	bad := "bad.fcstm"
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	for file, text := range map[string]string{name: inspectSARIFModel, bad: "state Root { state A; state A; [*] -> A; }\n"} {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _, code := runCLI(t, "inspect", "--format", "sarif", name)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	schematest.SARIF(t, "inspect --format sarif", []byte(out))
	var doc inspectSARIFDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("not one SARIF run (%v):\n%s", err, out)
	}
	var plain struct {
		Diagnostics []struct {
			Code, Severity string
			Span           struct{ Line, Column, End_line, End_column int }
		}
	}
	js, _, _ := runCLI(t, "inspect", "--format", "json", name)
	if err := json.Unmarshal([]byte(js), &plain); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if len(run.Results) != len(plain.Diagnostics) || len(run.Results) == 0 {
		t.Fatalf("%d results for %d diagnostics", len(run.Results), len(plain.Diagnostics))
	}
	rules := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		if rules[r.ID] {
			t.Errorf("rule %s twice", r.ID)
		}
		rules[r.ID] = true
		anchor := "docs/inspect.md#" + strings.ToLower(r.ID)
		if !pascalName.MatchString(r.Name) || r.Name == r.ID || r.FullDescription.Text == "" ||
			!strings.HasSuffix(r.HelpURI, anchor) || !strings.Contains(r.Help.Markdown, anchor) {
			t.Errorf("rule %+v", r)
		}
	}
	levels := map[string]string{"error": "error", "warning": "warning", "info": "note"}
	sawNote := false
	for i, r := range run.Results {
		d := plain.Diagnostics[i]
		loc := r.Locations[0].PhysicalLocation
		reg := loc.Region
		if r.RuleID != d.Code || run.Tool.Driver.Rules[r.RuleIndex].ID != d.Code || r.Level != levels[d.Severity] ||
			reg.StartLine != d.Span.Line || reg.StartColumn != d.Span.Column || reg.EndLine != d.Span.End_line || reg.EndColumn != d.Span.End_column {
			t.Errorf("result %d %+v for diagnostic %+v", i, r, d)
		}
		if u, err := url.Parse(loc.ArtifactLocation.URI); err != nil || u.Scheme != "" || path.Clean(u.Path) != name {
			t.Errorf("uri %q is not a reference to %q (%v)", loc.ArtifactLocation.URI, name, err)
		}
		sawNote = sawNote || r.Level == "note"
		delete(rules, r.RuleID)
	}
	if len(rules) != 0 || !sawNote {
		t.Errorf("rules with no result %v; an info as a note: %v", rules, sawNote)
	}

	out, _, code = runCLI(t, "inspect", "--format", "sarif", bad)
	schematest.SARIF(t, "inspect --format sarif (load error)", []byte(out))
	if code != exitInput || !strings.Contains(out, `"ruleId": "E_DUPLICATE_STATE"`) || !strings.Contains(out, `"level": "error"`) ||
		!strings.Contains(out, "docs/inspect.md#load-errors") {
		t.Errorf("load error: exit %d\n%s", code, out)
	}
	if testing.Short() {
		return
	}
	files := []string{"a.sarif", "b.sarif"}
	for i, args := range [][]string{{name}, {bad}} {
		out, _, _ := runCLI(t, append([]string{"inspect", "--format", "sarif"}, args...)...)
		if err := os.WriteFile(files[i], []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	schematest.SARIFMultitool(t, files...)
}
