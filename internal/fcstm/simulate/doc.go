// Package simulate runs an FCSTM model cycle by cycle for people and
// programs: it drives package fcstm/runtime over a list of cycles and
// reports each one (state, variables, actions, abstract calls, errors) as
// the stateproof/simulate/v1 JSON document or as text, and it holds the
// line handler of the interactive mode. A JSON model runs through the same
// session and report on its own runtime (package runtime, one event per
// cycle; StartJSON). Cycles are taken from a Source one at a time, so a
// run that keeps no history (Options.Forget) needs constant memory. The
// CLI command `stateproof simulate` and the MCP tool `simulate` are thin
// layers over it.
package simulate
