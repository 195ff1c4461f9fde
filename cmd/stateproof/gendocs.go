//go:build gendocs

package main

import (
	"fmt"
	"os"
)

// With the gendocs tag this package is the generator of the command
// reference (go generate ./cmd/stateproof): it writes docs/cli from the
// same cobra commands the binary runs.
func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run -tags gendocs ./cmd/stateproof DIR")
		os.Exit(2)
	}
	if err := writeReference(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
