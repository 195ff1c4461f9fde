package main

import (
	"strings"
	"testing"
)

// crModel counts x up in a during block, but the statement after the lone
// carriage return sets it to 100 every cycle: an editor, pyfcstm and the
// Language Server Protocol all end the comment at the "\r" (issue 38 item
// 8.1; before, the scanner ended comments at "\n" only, and bmc proved
// x < 50 of a machine that sets x to 100).
const crModel = "def int x = 0;\nstate M {\n    state A {\n        during {\n" +
	"            x = x + 1; // count\r            x = 100;\n" +
	"        }\n    }\n    [*] -> A;\n    A -> A;\n}\n"

func TestLoneCRDoesNotHideFCSTMCode(t *testing.T) {
	model := writeTemp(t, "m.fcstm", crModel)
	doc, code := bmcJSON(t, model, "--check", `check invariant <= 3: var("x") < 50;`)
	if code != 1 || field(doc, "result", "outcome") != "property_violated" || field(doc, "replay", "ok") != true {
		t.Fatalf("bmc: exit %d, result %v", code, doc["result"])
	}
	out, stderr, code := simulateWithInput(t, "", model, "--events", ";")
	if code != 0 || !strings.Contains(out, "x 0 → 100") {
		t.Fatalf("simulate: exit %d, stderr %q, output:\n%s", code, stderr, out)
	}
}

// A query whose check continues after a comment ended by a lone "\r": the
// conjunct after it is part of the property, which x = 100 violates.
// Before the fix the comment swallowed it, and bmc guaranteed "x >= 0".
func TestLoneCRDoesNotHideFBMCQCode(t *testing.T) {
	model := writeTemp(t, "m.fcstm", strings.ReplaceAll(crModel, "\r", "\n"))
	query := writeTemp(t, "q.fbmcq", "check invariant <= 3: var(\"x\") >= 0 // first\r&& var(\"x\") < 50 // second\n;\n")
	doc, code := bmcJSON(t, model, "-q", query)
	if code != 1 || field(doc, "result", "outcome") != "property_violated" {
		t.Fatalf("bmc: exit %d, result %v", code, doc["result"])
	}
}

// An error located after a lone CR is shown with the line an editor shows
// at that line number, under the caret.
func TestLoneCRInitErrorSnippet(t *testing.T) {
	p := writeTemp(t, "init.fcstm", "def int x = 1; // one\rdef int y = 1 / 0;\rstate R {\r  state A;\r  [*] -> A;\r}\r")
	_, errs, code := runCLI(t, "simulate", p, "--events", "")
	want := p + ":2:13: cannot start: the initial value of 'y' cannot be computed: division by zero\n    def int y = 1 / 0;\n                ^\n"
	if code != 2 || !strings.HasSuffix(errs, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant the suffix:\n%s", code, errs, want)
	}
}
