package progress

import "time"

// Engines that report, the Engine of a Snapshot.
const (
	Search   = "search"   // a breadth-first search (verify, compose)
	BMC      = "bmc"      // bounded model checking
	Prove    = "prove"    // the prover's layers
	Simulate = "simulate" // the FCSTM simulator's cycles
)

// Snapshot is what an engine has done so far. Which fields mean something
// depends on Engine; the others stay zero.
type Snapshot struct {
	Engine string
	// Task says which part of the run the engine is at: a verify check's
	// search ("explore", "A14 deadlines"), bmc's query, prove's round.
	Task string

	// Search: nodes stored, breadth-first depth of the node being
	// expanded, and nodes stored but not yet expanded.
	States, Queue int64
	Depth         int

	// BMC: the bound being solved (of MaxBound), the stage (encoding,
	// solving, feasibility, tail), and which query of how many.
	Bound, MaxBound int
	Stage           string
	Query, Queries  int

	// Prove: the layer running, and how many properties are proved,
	// violated, of how many.
	Layer                        string
	Proved, Violated, Properties int

	// Simulate: cycles run, of how many asked.
	Cycle, Cycles int
}

// Reporter receives snapshots. Report may be called from any goroutine
// and must return quickly; it must not keep a pointer into the engine.
type Reporter interface {
	Report(Snapshot)
}

// Func makes a function a Reporter.
type Func func(Snapshot)

// Report calls f.
func (f Func) Report(s Snapshot) { f(s) }

// SampleEvery is the most often a hot loop takes a snapshot: often enough
// for a spinner, rare enough that taking one costs nothing measurable.
const SampleEvery = 100 * time.Millisecond

// Sampler tells a hot loop when to take a snapshot. Its zero value is
// due at once, then every SampleEvery. It belongs to one goroutine.
type Sampler struct {
	// Every replaces SampleEvery when not zero; negative is always due
	// (tests look at every sample point).
	Every time.Duration
	next  time.Time
}

// Due reports whether the interval has passed since the last time it
// said yes.
func (s *Sampler) Due() bool {
	if s.Every < 0 {
		return true
	}
	now := time.Now()
	if now.Before(s.next) {
		return false
	}
	every := s.Every
	if every == 0 {
		every = SampleEvery
	}
	s.next = now.Add(every)
	return true
}
