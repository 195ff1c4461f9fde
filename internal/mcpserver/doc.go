// Package mcpserver serves stateproof to coding agents over the Model
// Context Protocol: the tools `verify`, `compose`, `bmc` and `prove` take a model
// inline (as the agent extracted it) or by path, run the same engines as
// the command line, and return the same report contracts as structured
// content — so an agent reads the verdict and the counterexample path, not
// prose. Each tool's output schema is the JSON Schema of its contract
// (package schemas), and the server's instructions tell an agent which tool
// answers which question.
package mcpserver
