package swarm

import "github.com/stateproof/stateproof/internal/frontend/concrete"

// A Target is a model as a swarm member searches it and a merge replays
// it: the format's concrete machine, the findings it hunts on each state,
// and how one of its steps is written into a report and followed again
// from one. Members and merge are one code for every format; a format
// gets them by implementing Target (JSON models: JSON; FCSTM models:
// package fcstm/explicit).
//
// A Target need not be safe for concurrent use: a member and a merge each
// run on one goroutine.
type Target interface {
	// Machine is the concrete machine searched.
	Machine() concrete.Machine
	// Hunts is how many distinct findings the model can have, when that
	// is known beforehand (a member stops once it has found them all), or
	// -1; when it is 0, why says why there is nothing to look for.
	Hunts() (n int, why string)
	// Found says n findings in a verdict reason ("2 invariant(s)
	// violated").
	Found(n int) string
	// Find returns the findings of state words whose key want accepts
	// (want is asked before the finding is tested, so a found finding
	// costs nothing more). initial says words is the initial state.
	Find(words []int64, initial bool, want func(key string) bool) []Finding
	// Rank orders the findings of a merged report, and reports whether
	// key names a finding the model can have at all.
	Rank(key string) (rank int, ok bool)
	// Step renders the step labelled label from src to next for a report.
	Step(src, next []int64, label int) Step
	// Replay follows step s from src and returns the state it enters (a
	// new slice), or why s is not a step from src: a report is untrusted
	// input.
	Replay(src []int64, s Step) ([]int64, error)
	// Key is a state's identity in this process, for maps and messages:
	// equal for equal states and only for them.
	Key(words []int64) string
}

// A Finding is what a member reports of a state: Key identifies it across
// reports (the report's "invariant"), Code and Message are what a reader
// sees.
type Finding struct {
	Key, Code, Message string
}
