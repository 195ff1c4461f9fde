// Package progress carries what a long run has done so far from an engine
// to whoever watches it: a terminal spinner, a line in a CI log, a JSON
// object a line, or an MCP client's progress notifications.
//
// An engine (the breadth-first search, the product search, bmc, the
// prover, the simulator) calls a Reporter with a Snapshot of its counters.
// The hot loops sample: they look at a Sampler every few thousand steps
// and take a snapshot at most every SampleEvery, so a run that nobody
// watches (a nil Reporter) pays one nil check per sample point and
// nothing per state. A Watch keeps the latest snapshot and hands it to its
// output at the output's own pace, so how often an engine reports and how
// often a line is printed are independent.
//
// Nothing here writes to stdout: reports are the commands' stdout, and
// progress never mixes with them.
package progress
