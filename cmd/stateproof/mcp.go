package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stateproof/stateproof/internal/mcpserver"
)

// mcpLong is the help text of mcp; its tool list is mcpserver.Tools, the
// list the server registers, so the two cannot drift apart.
func mcpLong() string {
	var b strings.Builder
	b.WriteString(`mcp runs a Model Context Protocol server on stdin/stdout. Its tools take a
model inline (parameter model) or by path (parameter path) and return the
same results as the command line, as structured content:

`)
	for _, t := range mcpserver.Tools() {
		contract := t.Contract
		if contract == "" {
			contract = "text"
		}
		fmt.Fprintf(&b, "  %-9s%-24s%s\n", t.Name, contract, t.Summary)
	}
	b.WriteString(`
Each report tool's output schema is the JSON Schema of its contract
(stateproof schema NAME; inspect's describes the document of inspect
--format json, docs/inspect.md), every schema is also a resource
(stateproof://schemas/NAME.schema.json), every tool is annotated idempotent
and closed-world, and read-only but generate, which writes files only when
given outDir, and only into a new directory under --root (docs/generate.md);
the server's instructions say which tool answers which question.

Register it with an MCP client as the command "stateproof mcp". Paths are read
under --root only (default: the working directory); every file and every
message is limited to --max-input-bytes. A malformed message gets a JSON-RPC
error and the session goes on.`)
	return b.String()
}

func newMCPCmd() *cobra.Command {
	var rootDir string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve verify, compose, simulate, draw, show, bmc, prove, inspect and generate to coding agents over MCP (stdio)",
		Long:  mcpLong(),
		Args:  cobra.NoArgs,
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
