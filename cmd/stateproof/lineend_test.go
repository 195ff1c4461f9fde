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
