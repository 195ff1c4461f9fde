package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDrawFormats(t *testing.T) {
	dir := t.TempDir()
	out, _, code := runCLI(t, "draw", "../../examples/order.json")
	if code != 0 || !strings.HasPrefix(out, "stateDiagram-v2\n") {
		t.Errorf("default: exit %d, %.40q", code, out)
	}
	for file, prefix := range map[string]string{"o.svg": "<?xml", "o.dot": "digraph machine {", "o.gv": "digraph machine {", "o.mmd": "stateDiagram-v2"} {
		path := filepath.Join(dir, file)
		if _, stderr, code := runCLI(t, "draw", "../../examples/order.json", "-o", path); code != 0 {
			t.Fatalf("%s: exit %d: %s", file, code, stderr)
		}
		data, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(data), prefix) {
			t.Errorf("%s starts %.30q, want %q", file, data, prefix)
		}
	}
	out, _, _ = runCLI(t, "draw", "../../examples/order.json", "--format", "dot")
	if !strings.HasPrefix(out, "digraph machine {") {
		t.Errorf("--format dot: %.30q", out)
	}
}

func TestDrawFinding(t *testing.T) {
	out, _, code := runCLI(t, "draw", "../../examples/broken/s7-scoped-range.json", "--finding", "S7_INVARIANT_VIOLATION", "--format", "dot")
	if code != 0 || !strings.Contains(out, "label=<1: coin / credit += 1>") || !strings.Contains(out, `class="state violating"`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, _ = runCLI(t, "draw", "../../examples/broken/s3-closed-cycle.json", "--finding", "S3_CLOSED_SCC")
	if !strings.Contains(out, "class s2,s1 highlight") && !strings.Contains(out, "class s1,s2 highlight") {
		t.Errorf("closed cycle not highlighted:\n%s", out)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"--finding", "NOPE"}, "verify reports no NOPE finding (it reports A1_UNHANDLED_EVENT"},
		{[]string{"--finding", "S7_INVARIANT_VIOLATION", "--index", "2"}, "verify reports 1 finding(s) S7_INVARIANT_VIOLATION; --index 2 is past the last"},
		{[]string{"--index", "2"}, "--index needs --finding"},
		{[]string{"--format", "png"}, "--format must be svg, mermaid or dot"},
		{[]string{"--finding", "S5_UNHANDLED_EVENT"}, "names no state or path of the machine"},
	} {
		_, stderr, code := runCLI(t, append([]string{"draw", "../../examples/broken/s7-scoped-range.json"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.err) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.err)
		}
	}
	if _, stderr, code := runCLI(t, "draw", "../../examples/broken/invalid-typo.json"); code != 2 || !strings.Contains(stderr, "is not a valid model") {
		t.Errorf("invalid model: exit %d, %q", code, stderr)
	}
}

func TestShowCLI(t *testing.T) {
	out, _, code := runCLI(t, "show", "../../examples/order.json", "--width", "60")
	if code != 0 || !strings.HasPrefix(out, "(76 columns > 60: by source state)\nNEW (order…)\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// --form in any case (before, "b" was refused).
	if out, stderr, code := runCLI(t, "show", "../../examples/order.json", "--form", "b"); code != 0 || !strings.HasPrefix(out, "1. ") {
		t.Errorf("--form b: exit %d, %q\n%s", code, stderr, out)
	}
	if _, stderr, code := runCLI(t, "show", "../../examples/order.json", "--form", "Z"); code != 2 || !strings.Contains(stderr, "form must be A, B, C or auto") {
		t.Errorf("bad form: exit %d, %q", code, stderr)
	}
}

func TestHTMLFormatRefusals(t *testing.T) {
	if _, stderr, code := runCLI(t, "verify", "../../examples/order.json", "--format", "html", "--hash-check", "00"); code != 2 || !strings.Contains(stderr, "--format html reports findings") {
		t.Errorf("html + hash-check: exit %d, %q", code, stderr)
	}
	out, _, code := runCLI(t, "verify", "../../examples/order.json", "--format", "html")
	if code != 0 || !strings.HasPrefix(out, "<!DOCTYPE html>") {
		t.Errorf("html to stdout: exit %d, %.30q", code, out)
	}
}

func TestDrawAndHTMLForFCSTM(t *testing.T) {
	out, stderr, code := runCLI(t, "draw", "../../examples/fcstm/door.fcstm", "--format", "dot")
	if code != 0 || !strings.Contains(out, "subgraph cluster_s0 {") || !strings.Contains(out, "label=<[hold &gt;= 3]>") {
		t.Errorf("exit %d %s:\n%s", code, stderr, out)
	}
	out, _, _ = runCLI(t, "verify", "../../examples/fcstm/door.fcstm", "--format", "html")
	if !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.Contains(out, `id="m_s1"`) {
		t.Errorf("FCSTM html report without the machine:\n%.500s", out)
	}
}

// draw --finding draws an LTL lasso with its cycle marked.
func TestDrawLasso(t *testing.T) {
	out, stderr, code := runCLI(t, "draw", "../../internal/diagram/testdata/lasso.json", "--finding", "A15_LTL_VIOLATION", "--format", "mermaid")
	if code != 0 || !strings.Contains(out, "(2↻) poll") || !strings.Contains(out, "lasso: step 2 (↻) repeats forever") {
		t.Errorf("exit %d, stderr %s, out:\n%s", code, stderr, out)
	}
}
