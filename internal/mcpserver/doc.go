// Package mcpserver serves stateproof to coding agents over the Model
// Context Protocol: the tools `verify`, `compose` and `bmc` take a model
// inline (as the agent extracted it) or by path, run the same engines as
// the command line, and return the same report contracts as structured
// content — so an agent reads the verdict and the counterexample path, not
// prose.
package mcpserver
