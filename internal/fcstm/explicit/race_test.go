//go:build race

package explicit

// raceEnabled: the race detector drops sync.Pool items at random, so a
// pooled stepper is sometimes new, and allocation counts mean nothing.
const raceEnabled = true
