package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWithoutLibz3 runs the CLI in a child process that cannot load libz3:
// verify and compose work as usual, and bmc and prove fail with exit 2 and
// a one-line install hint (the binary is not linked against libz3).
func TestWithoutLibz3(t *testing.T) {
	if args := os.Getenv("STATEPROOF_CLI_CHILD"); args != "" {
		var out, errb bytes.Buffer
		code := run(strings.Split(args, "\x1f"), &out, &errb)
		os.Stdout.WriteString(out.String())
		os.Stderr.WriteString(errb.String())
		os.Exit(code)
	}
	missing := filepath.Join(t.TempDir(), "libz3.so")
	child := func(args ...string) (string, string, int) {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestWithoutLibz3$")
		cmd.Env = append(os.Environ(), "STATEPROOF_CLI_CHILD="+strings.Join(args, "\x1f"), "STATEPROOF_LIBZ3="+missing)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	if out, errOut, code := child("verify", "../../examples/order.json"); code != 0 || !strings.HasPrefix(out, "PASS WITH FINDINGS") {
		t.Errorf("verify without libz3: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code := child("compose", "../../examples/compose/producer.json", "../../examples/compose/consumer.json", "--rendezvous", "put"); code != 0 || !strings.HasPrefix(out, "PASS") {
		t.Errorf("compose without libz3: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"bmc", "../../examples/order.json", "-q", "../../examples/queries/order-paid.fbmcq"},
		{"prove", "../../examples/retry.json"},
	} {
		_, errOut, code := child(args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || len(lines) != 1 || !strings.Contains(errOut, "libz3 is not installed") || !strings.Contains(errOut, "apt-get install") {
			t.Errorf("%s without libz3: exit %d, stderr %q", args[0], code, errOut)
		}
	}
}
