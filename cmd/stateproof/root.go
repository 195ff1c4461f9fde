package main

// The command reference in docs/cli is generated from newRootCmd.
//go:generate go run -tags gendocs . ../../docs/cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/report"
)

// exitError carries a process exit code through cobra.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// run executes the CLI and returns the process exit code; it never panics
// on user input.
func run(args []string, stdout, stderr io.Writer) int {
	return runIn(context.Background(), args, stdout, stderr)
}

// runIn is run with a context carrying the process (see process).
func runIn(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// A panic is a bug in stateproof, never the user's fault: say so,
		// with what to report, instead of a Go stack trace.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "stateproof: internal error: %v\n(please report this with the command line and the input files)\n", p)
			code = exitInternal
		}
	}()
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
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

// maxInputFlag is the persistent flag bounding every file read.
const maxInputFlag = "max-input-bytes"

// importRootFlag names the directory FCSTM imports must stay inside.
const importRootFlag = "import-root"

// inputReader is the reader of cmd's input files, with the
// --max-input-bytes limit.
func inputReader(cmd *cobra.Command) input.Reader {
	n, _ := cmd.Flags().GetInt64(maxInputFlag)
	dir, _ := cmd.Flags().GetString(importRootFlag)
	return input.Reader{MaxBytes: n, ImportRoot: dir}
}

// optionMessage renders an option refusal with the option's flag name
// (maxStates -> --max-states).
func optionMessage(err error) string {
	var oe *report.OptionError
	if !errors.As(err, &oe) {
		return err.Error()
	}
	var b strings.Builder
	b.WriteString("--")
	for _, r := range oe.Option {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String() + " " + oe.Problem
}

// newRootCmd builds the command tree; the command reference in docs/cli is
// generated from it (gendocs.go).
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "stateproof",
		Short: "Verify state machines: explicit-state checks, with evidence",
		Long: `stateproof checks state machines before they ship and answers with evidence:
findings carry the shortest counterexample path, and a search that stops at a
cap says "not decided", never "pass".`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildVersion(),
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if n, err := cmd.Flags().GetInt64(maxInputFlag); err == nil && n < 1 {
				return fmt.Errorf("--%s must be an integer >= 1 (got %d)", maxInputFlag, n)
			}
			if msg := persistentIgnored(cmd, args); msg != "" {
				return errors.New(msg)
			}
			return nil
		},
	}
	root.SetVersionTemplate("stateproof {{.Version}}\n" + versionNote(buildVersion()))
	root.PersistentFlags().Int64(maxInputFlag, input.DefaultMaxBytes, "refuse any input file larger than `N` bytes")
	root.PersistentFlags().String(importRootFlag, "", "FCSTM imports must resolve inside `DIR` (default: the directory of the model; under mcp, a directory under --root)")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newVerifyCmd(stdout, stderr), newComposeCmd(stdout, stderr), newBMCCmd(stdout, stderr), newProveCmd(stdout, stderr), newMCPCmd(), newGenCmd(stdout), newSimulateCmd(os.Stdin, stdout, stderr), newSchemaCmd(stdout))
	root.AddCommand(newLSPCmd(stderr)) // the language server (docs/lsp.md)
	addPresentationCmds(root, stdout, stderr)
	root.AddCommand(newFmtCmd(stdout, stderr))
	root.AddCommand(newInspectCmd(stdout, stderr))
	root.AddCommand(newMergeCmd(stdout, stderr)) // swarm reports (swarm.go)
	root.AddCommand(newGenerateCmd(stderr))
	return root
}

// writeOutput writes data to path atomically (a temporary file in the same
// directory, fsync, then a rename), or to w when path is empty.
func writeOutput(path string, w io.Writer, data []byte) error {
	if path == "" {
		_, err := w.Write(data)
		return err
	}
	tmp, err := createSibling(path)
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

// createSibling creates a new temporary file next to path. Unlike
// os.CreateTemp (mode 0600) it asks for mode 0666, so the report gets the
// permissions the umask gives any created file (0644 typically).
func createSibling(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("cannot create a temporary file in %q", dir)
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

// buildVersion is the module version and VCS revision this binary was
// built from, as the Go toolchain recorded them.
func buildVersion() string {
	if releaseVersion != "" {
		return fmt.Sprintf("%s (revision %s)", releaseVersion, releaseRevision)
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version + " (no build information)"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = version + "-devel"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev == "" {
		return v
	}
	return fmt.Sprintf("%s (revision %s%s)", v, rev, modified)
}

// versionNote explains, under --version, a build version without a
// revision: the README promises one, and the Go toolchain records none
// when told not to (-buildvcs=false, also through GOFLAGS) or when the
// source is not a git clone.
func versionNote(v string) string {
	if strings.Contains(v, "(revision ") {
		return ""
	}
	return "no VCS revision recorded: built outside a git clone or with -buildvcs=false (check GOFLAGS)\n"
}
