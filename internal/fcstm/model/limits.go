package model

// Cycle limits (docs/fcstm.md, "The inner loop"). They are part of the
// language's semantics: the runtime raises a limit error past them and the
// symbolic lowering applies the same bounds, so both read them from here
// rather than one from the other (the runtime is the encoder's oracle and
// shares no code with it).
const (
	// MaxSteps bounds the inner-loop iterations along one search path.
	MaxSteps = 1000
	// MaxDepth bounds the stack: frames from the root to the current state.
	MaxDepth = 64
	// MaxWork bounds the inner-loop iterations of one whole cycle, over
	// all the continuations tried, so that a cycle's work is bounded even
	// when every choice has several candidates.
	MaxWork = 100 * MaxSteps
)
