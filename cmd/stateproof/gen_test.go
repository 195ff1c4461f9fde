package main

import (
	"strings"
	"testing"
)

// gen --format fcstm writes the FCSTM counter and toggles, which load and
// run; the other families have no FCSTM version and are refused.
func TestGenFCSTM(t *testing.T) {
	out, errOut, code := runCLI(t, "gen", "toggles", "3", "--format", "fcstm")
	if code != 0 || !strings.Contains(out, "On -> On :: Flip2") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	p := writeTemp(t, "c.fcstm", func() string { s, _, _ := runCLI(t, "gen", "counter", "2", "--format", "fcstm"); return s }())
	out, errOut, code = runCLI(t, "simulate", p, "--events", ";;;")
	if code != 0 || !strings.Contains(out, "Counter.Done") {
		t.Errorf("simulate of the FCSTM counter: exit %d: %s%s", code, out, errOut)
	}
	for _, args := range [][]string{{"gen", "ring", "2", "--format", "fcstm"}, {"gen", "counter", "2", "--format", "yaml"}} {
		if _, errOut, code := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "--format") && !strings.Contains(errOut, "FCSTM") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}
