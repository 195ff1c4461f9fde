package main

import (
	"fmt"
	"io"

	"github.com/stateproof/stateproof/internal/frontend"
)

// undecidedPhase reports a phase timeout on stderr as the command's
// undecided answer: exit 3. It is for the outputs that cannot show the
// report without the model (text and HTML of prove); JSON and SARIF carry
// the undecided report itself.
func undecidedPhase(stderr io.Writer, command string, err *frontend.PhaseTimeout) error {
	fmt.Fprintf(stderr, "stateproof %s: UNKNOWN: %v\n", command, err)
	return &exitError{3}
}
