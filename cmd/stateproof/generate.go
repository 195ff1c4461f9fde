package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/generate"
	"github.com/stateproof/stateproof/internal/input"
)

// generateFlags are the flags of stateproof generate.
type generateFlags struct {
	target, out, name string
	driver            bool
}

func newGenerateCmd(stderr io.Writer) *cobra.Command {
	var f generateFlags
	cmd := &cobra.Command{
		Use:   "generate MODEL.fcstm|MODEL.json --target c|go|python|typescript -o DIR",
		Short: "Generate code that runs a model exactly as the runtime does",
		Long: `generate writes code that runs MODEL cycle for cycle as stateproof's runtime
does: the machine every verdict was computed on becomes the machine shipped
(docs/generate.md).

--target go writes one Go package (standard library only) into DIR: New for a
cold or hot start, Cycle(events), State, Ended, the variables, and a hook for
every abstract action. --target python writes the same as one module NAME.py
(Python 3.9+, standard library only); --target typescript as one module
NAME.ts (ES2020, tsc --strict clean, no runtime dependencies; ints are
bigints). --name names the package or module (by default the model's file
name). --driver adds a driver program and an executable DIR/run script:
DIR/run --steps STEPS.json [--init-state S --init-vars JSON] prints exactly the
document stateproof simulate MODEL --steps STEPS.json --json prints.

--target c writes NAME.h and NAME.c (C99, standard library only, no heap: the
machine is a caller-owned struct), with the same concepts; its integers are
64-bit, and a result outside 64 bits fails the cycle (class "target") instead
of wrapping. Its driver is compiled with cc.

A JSON model (docs/models.md) is generated for every target: code that steps
the model one event per cycle as simulate does (a nondeterministic event is an
error), with mathematical integers (C: 64-bit, checked, as for FCSTM models).

A model the target cannot run exactly (a math function the target's library
does not compute correctly rounded, …) is refused with a located error
(file:line:col) and exit status 2, and nothing is written; docs/generate.md
lists what is unsupported. Exit status: 0 written; 2 on a usage error, a model
that does not load or is unsupported, or a file that cannot be written.`,
		Example: `  stateproof generate examples/fcstm/door.fcstm --target go -o door
  stateproof generate door.fcstm --target go -o gen/door --name door --driver
  stateproof generate door.fcstm --target python -o gen/pydoor --driver
  stateproof generate door.fcstm --target typescript -o gen/tsdoor --driver
  stateproof generate door.fcstm --target c -o gen/door_c --driver
  stateproof generate examples/lock.json --target go -o gen/lock --driver
  gen/door/run --steps steps.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGenerate(f, cmd, args[0], stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.target, "target", "", "the target language: `c`, go, python or typescript")
	fl.StringVarP(&f.out, "out", "o", "", "the output `DIR` (created if needed)")
	fl.StringVar(&f.name, "name", "", "the package or module `NAME` (default: from the model's file name)")
	fl.BoolVar(&f.driver, "driver", false, "also write a driver program and DIR/run, which print the simulate --json document of a run")
	return cmd
}

func runGenerate(f generateFlags, cmd *cobra.Command, path string, stderr io.Writer) error {
	fail := func(format string, args ...any) error {
		fmt.Fprintf(stderr, "stateproof generate: "+format+"\n", args...)
		return &exitError{exitInput}
	}
	switch {
	case f.target == "":
		return fail("--target is required (targets: %s)", strings.Join(generate.Targets(), ", "))
	case !slices.Contains(generate.Targets(), f.target):
		return fail("--target %q is not a target (targets: %s)", f.target, strings.Join(generate.Targets(), ", "))
	case f.out == "":
		return fail("-o DIR is required")
	}
	files, err := generateFiles(f, inputReader(cmd), path)
	if err != nil {
		// A load error, an *generate.Unsupported: located texts.
		return fail("%v", err)
	}
	if err := generate.Write(f.out, files); err != nil {
		return fail("%v", err)
	}
	return nil
}

// generateFiles loads the model (FCSTM by its extension, else a JSON
// model, as simulate does) and generates its code, as the MCP tool does.
func generateFiles(f generateFlags, rd input.Reader, path string) ([]generate.File, error) {
	return generate.FileModel(rd, path, f.target, generate.Options{Name: f.name, Driver: f.driver, ModelName: path})
}
