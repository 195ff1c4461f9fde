package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

// exitError carries a process exit code through cobra.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// run executes the CLI and returns the process exit code; it never panics
// on user input.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// A panic is a bug in stateproof, never the user's fault: say so,
		// with what to report, instead of a Go stack trace.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "stateproof: internal error: %v\n(please report this with the command line and the input files)\n", p)
			code = 2
		}
	}()
	root := &cobra.Command{
		Use:   "stateproof",
		Short: "Verify state machines: explicit-state checks, with evidence",
		Long: `stateproof checks state machines before they ship and answers with evidence:
findings carry the shortest counterexample path, and a search that stops at a
cap says "not decided", never "pass".`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newVerifyCmd(stdout, stderr), newComposeCmd(stdout, stderr), newBMCCmd(stdout, stderr), newProveCmd(stdout, stderr), newMCPCmd(), newGenCmd(stdout), newSimulateCmd(os.Stdin, stdout, stderr))
	addPresentationCmds(root, stdout, stderr)
	err := root.Execute()
	var ee *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintf(stderr, "stateproof: %v\n", err)
	return 2
}

// writeOutput writes data to path atomically (a temporary file in the same
// directory, fsync, then a rename), or to w when path is empty.
func writeOutput(path string, w io.Writer, data []byte) error {
	if path == "" {
		_, err := w.Write(data)
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// useColor decides whether text output is coloured.
func useColor(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		f, ok := w.(*os.File)
		if !ok {
			return false, nil
		}
		st, err := f.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0, nil
	}
	return false, fmt.Errorf("--color must be auto, always or never (got %q)", mode)
}
