//go:build !gendocs

// Command stateproof checks state machines before they ship: explicit-state
// verification of JSON models (verify), with bounded model checking and
// induction to follow. Run `stateproof help` for the commands.
package main

import (
	"context"
	"os"
	"time"
)

func main() {
	p := process{start: processStart(time.Now()), exiting: true}
	os.Exit(runIn(withProcess(context.Background(), p), os.Args[1:], os.Stdout, os.Stderr))
}
