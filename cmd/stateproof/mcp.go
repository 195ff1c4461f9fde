package main

import (
	"github.com/spf13/cobra"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stateproof/stateproof/internal/mcpserver"
)

func newMCPCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve verify, compose and bmc to coding agents over MCP (stdio)",
		Long: `mcp runs a Model Context Protocol server on stdin/stdout. Its tools take a
model inline or by path and return the same report contracts as the command
line, as structured content:

  verify   logicprobe/verify/v1   (S1-S8, A1-A14; D1-D4 with beforeModel)
  compose  logicprobe/compose/v1  (C1, C2)
  bmc      stateproof/bmc/v1      (FBMCQ query; witnesses replayed)
  simulate stateproof/simulate/v1 (FCSTM model run cycle by cycle)

Register it with an MCP client as the command "stateproof mcp".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return mcpserver.New(version).Run(cmd.Context(), &mcp.StdioTransport{})
		},
	}
}
