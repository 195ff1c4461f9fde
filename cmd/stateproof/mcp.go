package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/mcpserver"
)

func newMCPCmd() *cobra.Command {
	var rootDir string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve verify, compose, bmc, prove and simulate to coding agents over MCP (stdio)",
		Long: `mcp runs a Model Context Protocol server on stdin/stdout. Its tools take a
model inline or by path and return the same report contracts as the command
line, as structured content:

  verify   logicprobe/verify/v1   (S1-S8, A1-A14; D1-D4 with beforeModel)
  compose  logicprobe/compose/v1  (C1, C2)
  bmc      stateproof/bmc/v1      (an FBMCQ query, or bound: the model's
                                   invariants to that depth; witnesses replayed)
  prove    stateproof/prove/v1    (per-state invariants for every execution)
  simulate stateproof/simulate/v1 (FCSTM model run cycle by cycle)

Each tool's output schema is the JSON Schema of its contract (stateproof
schema NAME), and the server's instructions say which tool answers which
question.

Register it with an MCP client as the command "stateproof mcp". Paths are read
under --root only (default: the working directory); every file and every
message is limited to --max-input-bytes. A malformed message gets a JSON-RPC
error and the session goes on.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := filepath.Abs(rootDir)
			if err != nil {
				return err
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				return fmt.Errorf("--root: %w", err)
			}
			defer root.Close()
			files := inputReader(cmd)
			files.Root = root
			if filepath.IsAbs(files.ImportRoot) {
				// Paths the server reads are relative to the root.
				rel, err := filepath.Rel(dir, files.ImportRoot)
				if err != nil || !filepath.IsLocal(rel) && rel != "." {
					return fmt.Errorf("--%s %s is not under --root %s", importRootFlag, files.ImportRoot, dir)
				}
				files.ImportRoot = rel
			}
			t := &mcpserver.LineTransport{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), MaxBytes: int(files.MaxBytes)}
			return mcpserver.New(version, mcpserver.Config{Files: files}).Run(cmd.Context(), t)
		},
	}
	cmd.Flags().StringVar(&rootDir, "root", ".", "serve model files under `DIR` only (paths, `..` and symbolic links cannot leave it)")
	return cmd
}
