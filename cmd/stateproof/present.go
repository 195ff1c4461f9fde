package main

import (
	"io"

	"github.com/spf13/cobra"
)

// addPresentationCmds registers the commands that present a model rather
// than check it: draw and show.
func addPresentationCmds(root *cobra.Command, stdout, stderr io.Writer) {
	root.AddCommand(newDrawCmd(stdout, stderr), newShowCmd(stdout, stderr))
}
