package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEmptyRSCFile(t *testing.T) {
	empty := writeTemp(t, "empty.rsc", "// nothing yet\n")
	_, stderr, code := runCLI(t, "prove", "../../examples/retry.json", "--rsc", empty)
	if code != 2 || !strings.Contains(stderr, "declares no rsc statement") || strings.Contains(stderr, "give --rsc FILE") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

func TestColorValidated(t *testing.T) {
	for _, args := range [][]string{
		{"verify", "../../examples/retry.json"},
		{"compose", "../../examples/compose/producer.json", "../../examples/compose/consumer.json"},
		{"bmc", "../../examples/retry.json", "--bound", "2"},
		{"prove", "../../examples/retry.json"},
	} {
		_, stderr, code := runCLI(t, append(args, "--color", "bogus")...)
		if code != 2 || !strings.Contains(stderr, "--color must be auto, always or never") {
			t.Errorf("%s --color bogus: exit %d, %q", args[0], code, stderr)
		}
	}
}

func TestHashCheckIsHex(t *testing.T) {
	for _, bad := range []string{"zz", "", strings.Repeat("g", 64), strings.Repeat("a", 63)} {
		_, stderr, code := runCLI(t, "verify", "../../examples/retry.json", "--hash-check", bad)
		if code != 2 || !strings.Contains(stderr, "64 hexadecimal digits") {
			t.Errorf("--hash-check %q: exit %d, %q", bad, code, stderr)
		}
	}
	out, _, code := runCLI(t, "verify", "../../examples/retry.json", "--hash-check", strings.Repeat("A", 64))
	if code != 2 || !strings.HasPrefix(out, "FAIL: no published hash spec reproduces") {
		t.Errorf("a well-formed hash that matches nothing: exit %d, %q", code, out)
	}
}

func TestSARIFDeclaresColumnKindAndInvocation(t *testing.T) {
	out, _, _ := runCLI(t, "verify", "../../examples/retry.json", "--format", "sarif")
	var log struct {
		Runs []struct {
			ColumnKind  string
			Invocations []struct{ ExecutionSuccessful bool }
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v", err)
	}
	r := log.Runs[0]
	if r.ColumnKind != "unicodeCodePoints" || len(r.Invocations) != 1 || !r.Invocations[0].ExecutionSuccessful {
		t.Errorf("run = %+v", r)
	}
}

func TestComposeOneMachineIsUsageError(t *testing.T) {
	out, stderr, code := runCLI(t, "compose", "../../examples/compose/producer.json")
	if code != 2 || out != "" || !strings.Contains(stderr, "two or more machines") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}
