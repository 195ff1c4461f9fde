//go:build !gendocs

// Command stateproof checks state machines before they ship: explicit-state
// verification of JSON models (verify), with bounded model checking and
// induction to follow. Run `stateproof help` for the commands.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
