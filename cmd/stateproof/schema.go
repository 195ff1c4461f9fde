package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/schemas"
)

func newSchemaCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "schema [NAME]",
		Short: "Print the JSON Schema of the model or of a report contract",
		Long: `schema prints one of stateproof's JSON Schemas (draft 2020-12): "model" for
the input model (schema v1, closed: an editor pointed at it flags unknown keys),
or the contract of a report: verify (logicprobe/verify/v1), compose
(logicprobe/compose/v1), baseline (logicprobe/baseline/v1), bmc
(stateproof/bmc/v1), prove (stateproof/prove/v1), simulate
(stateproof/simulate/v1), inspect (stateproof/inspect/v1). Without NAME it
lists the names. docs/reports.md
describes every field.

schema reads no file: --max-input-bytes and --import-root are refused (exit 2).`,
		Example: `  stateproof schema
  stateproof schema model > model.schema.json
  stateproof schema verify`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				_, err := fmt.Fprintln(stdout, strings.Join(schemas.Names(), "\n"))
				return err
			}
			data, ok := schemas.Get(args[0])
			if !ok {
				return fmt.Errorf("no schema %q (known: %s)", args[0], strings.Join(schemas.Names(), ", "))
			}
			_, err := stdout.Write(data)
			return err
		},
	}
}
