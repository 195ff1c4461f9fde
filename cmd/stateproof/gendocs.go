//go:build gendocs

package main

import (
	"fmt"
	"io"
	"os"

	"github.com/stateproof/stateproof/internal/clidoc"
)

// With the gendocs tag this package is the generator of the command
// reference (go generate ./cmd/stateproof): it writes docs/cli from the
// same cobra commands the binary runs.
func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run -tags gendocs ./cmd/stateproof DIR")
		os.Exit(2)
	}
	if err := clidoc.Write(os.Args[1], newRootCmd(io.Discard, io.Discard)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
