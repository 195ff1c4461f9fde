package main

import (
	"errors"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/format"
	"github.com/stateproof/stateproof/internal/lsp"
)

func newLSPCmd(stderr io.Writer) *cobra.Command {
	var timeout, debounce time.Duration
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Serve FCSTM, FBMCQ, RSC and JSON models to editors over the Language Server Protocol (stdio)",
		Long: `lsp runs a Language Server Protocol server on stdin/stdout for FCSTM (.fcstm),
FBMCQ (.fbmcq), RSC (.rsc) and JSON models (.json with a schemaVersion key).

Diagnostics as you type are what verify, bmc and prove say about the file: parse
and construction errors, the FCSTM lints, JSON schema errors and verify
findings, and a query's unknown names checked against its model (its
"// model: PATH" line, or the .fcstm or .json file of the same name beside it).
Navigation (outline, definition, references, hover, completion, rename) and
the commands simulate, draw, generate and check this query are described in
docs/lsp.md.

Every document and every file read is limited to --max-input-bytes; every
request and every analysis to --request-timeout. The editor starts the server;
it exits when the editor sends exit (status 0 after shutdown, 1 otherwise).`,
		Example: `  stateproof lsp
  stateproof lsp --max-input-bytes 8388608 --request-timeout 5s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rd := inputReader(cmd)
			err := lsp.Serve(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), lsp.Options{
				MaxInputBytes: rd.MaxBytes, ImportRoot: rd.ImportRoot,
				RequestTimeout: timeout, Debounce: debounce, Log: stderr,
				Format: format.Source,
			})
			if err == nil {
				return nil
			}
			if !errors.Is(err, lsp.ErrExitWithoutShutdown) {
				cmd.PrintErrln("stateproof lsp:", err)
			}
			return &exitError{1}
		},
	}
	cmd.Flags().DurationVar(&timeout, "request-timeout", 10*time.Second, "time budget of each request and each analysis")
	cmd.Flags().DurationVar(&debounce, "debounce", 150*time.Millisecond, "pause in typing before diagnostics run")
	return cmd
}
