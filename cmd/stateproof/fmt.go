package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/format"
)

// fmtOptions are the flags of stateproof fmt.
type fmtOptions struct {
	write, list, diff bool
	lang              string
}

func newFmtCmd(stdout, stderr io.Writer) *cobra.Command {
	var o fmtOptions
	cmd := &cobra.Command{
		Use:   "fmt [-w] [-l] [-d] [FILE|DIR]...",
		Short: "Format FCSTM models, FBMCQ queries and RSC files canonically",
		Long: `fmt prints FCSTM (.fcstm), FBMCQ (.fbmcq) and RSC (.rsc) files in their canonical layout:
four spaces per level, one statement per line, spacing by rule, at most one
blank line where there were some, every comment and documentation block kept
in place, numbers and strings exactly as written. Formatting is idempotent and
never changes what a file means (docs/fmt.md).

A directory stands for the .fcstm, .fbmcq and .rsc files below it. Without a file
fmt reads standard input (--lang says which language). Without -w, -l or -d
it prints the formatted text. Exit status: 0 done; 1 with -l or -d when a file
is not formatted; 2 when a file does not parse (the error is located
file:line:col) or cannot be read or written.

--lang with file arguments is refused (exit 2): it names the language of
standard input, and a file's extension names its own.`,
		Example: `  stateproof fmt examples/fcstm/door.fcstm
  stateproof fmt -l examples/
  stateproof fmt -d model.fcstm
  stateproof fmt -w models/
  stateproof fmt --lang fbmcq < query.fbmcq`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.write && len(args) == 0 {
				return errors.New("fmt -w needs files to write: standard input is formatted to standard output")
			}
			if !slices.Contains(format.Languages(), o.lang) {
				return fmt.Errorf("--lang must be fcstm, fbmcq or rsc (got %q)", o.lang)
			}
			if cmd.Flags().Changed("lang") && len(args) > 0 {
				return errors.New("--lang has no effect with files: it names the language of standard input, and a file's extension names its own")
			}
			r := &fmtRun{opts: o, stdout: stdout, stderr: stderr, limit: inputReader(cmd).Limit(), read: inputReader(cmd).ReadFile}
			if len(args) == 0 {
				r.stdin(cmd.InOrStdin())
			}
			for _, arg := range args {
				r.arg(arg)
			}
			switch {
			case r.failed:
				return &exitError{code: exitInput}
			case r.changed && (o.list || o.diff):
				return &exitError{code: exitViolated}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&o.write, "write", "w", false, "write the result to each file instead of printing it (atomically, keeping the file's mode)")
	f.BoolVarP(&o.list, "list", "l", false, "list the files whose formatting differs")
	f.BoolVarP(&o.diff, "diff", "d", false, "print a unified diff of the changes instead of the formatted text")
	f.StringVar(&o.lang, "lang", "fcstm", "the language of standard input: `fcstm`, fbmcq or rsc")
	return cmd
}

// fmtRun formats the arguments of one fmt command.
type fmtRun struct {
	opts           fmtOptions
	stdout, stderr io.Writer
	limit          int64
	read           func(string) ([]byte, error)
	failed         bool // a file could not be read, parsed or written
	changed        bool // a file was not formatted
}

func (r *fmtRun) fail(err error) {
	fmt.Fprintf(r.stderr, "stateproof fmt: %v\n", err)
	r.failed = true
}

// arg formats a file, or the .fcstm, .fbmcq and .rsc files below a directory.
func (r *fmtRun) arg(arg string) {
	st, err := os.Stat(arg)
	if err != nil {
		r.fail(err)
		return
	}
	if !st.IsDir() {
		r.file(arg, true)
		return
	}
	err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			r.fail(err)
			return nil
		}
		hidden := path != arg && strings.HasPrefix(d.Name(), ".")
		switch {
		case d.IsDir() && hidden:
			return filepath.SkipDir
		case !d.IsDir() && !hidden && d.Type().IsRegular() && format.LanguageOf(path) != "":
			r.file(path, false)
		}
		return nil
	})
	if err != nil {
		r.fail(err)
	}
}

// file formats one file; named is true for a file given by name, which
// must then have a known extension.
func (r *fmtRun) file(path string, named bool) {
	if format.LanguageOf(path) == "" && named {
		r.fail(fmt.Errorf("%s: not an FCSTM (.fcstm), FBMCQ (.fbmcq) or RSC (.rsc) file", path))
		return
	}
	src, err := r.read(path)
	if err != nil {
		r.fail(err)
		return
	}
	out, err := format.Source(path, src)
	if err != nil {
		r.fail(err)
		return
	}
	r.result(path, src, out)
}

// stdin formats standard input.
func (r *fmtRun) stdin(in io.Reader) {
	src, err := io.ReadAll(io.LimitReader(in, r.limit+1))
	if err != nil {
		r.fail(fmt.Errorf("reading standard input: %w", err))
		return
	}
	if int64(len(src)) > r.limit {
		r.fail(fmt.Errorf("standard input is larger than %d bytes (--%s)", r.limit, maxInputFlag))
		return
	}
	out, err := format.SourceAs(r.opts.lang, "<standard input>", src)
	if err != nil {
		r.fail(err)
		return
	}
	r.result("<standard input>", src, out)
}

// result reports or writes the formatted text of one input.
func (r *fmtRun) result(path string, src, out []byte) {
	same := bytes.Equal(src, out)
	if !same {
		r.changed = true
	}
	if r.opts.list && !same {
		fmt.Fprintln(r.stdout, path)
	}
	if r.opts.write && !same {
		if err := writeKeepingMode(path, out); err != nil {
			r.fail(err)
			return
		}
	}
	if r.opts.diff && !same {
		io.WriteString(r.stdout, unifiedDiff(path+".orig", path, string(src), string(out)))
	}
	if !r.opts.list && !r.opts.write && !r.opts.diff {
		r.stdout.Write(out)
	}
}

// writeKeepingMode replaces the file at path by data, as gofmt -w does: a
// symbolic link is followed and its target rewritten (the link stays a
// link), and a file with other hard links is rewritten in place so every
// name keeps seeing one file. A file with one name is replaced atomically
// (a temporary file in the same directory, then a rename), with its
// permission bits.
func writeKeepingMode(path string, data []byte) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(target)
	if err != nil {
		return err
	}
	if hardLinks(st) > 1 {
		return writeInPlace(target, data)
	}
	tmp, err := createSibling(target)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(st.Mode().Perm())
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// writeInPlace truncates and rewrites a file that has several names. A
// copy of the old contents is kept beside it until the write succeeds,
// so a failed write (a full disk) leaves the old text recoverable; the
// error names the copy.
func writeInPlace(path string, data []byte) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	backup, err := createSibling(path)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, err = backup.Write(old)
	if cerr := backup.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(backup.Name())
		return fmt.Errorf("writing %s: keeping a copy: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err == nil {
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w (the previous contents are in %s)", path, err, backup.Name())
	}
	return os.Remove(backup.Name())
}
