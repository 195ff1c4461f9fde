// Package frontend is the one seam between model formats and the engines.
//
// A front end (JSON models, FCSTM models, and any later format) loads a
// model file into a [Model]: the symbolic transition system the engines
// read ([sts.System]), a [Replayer] that drives the format's own concrete
// runtime along a decoded trace, and the properties the model declares.
// bmc, explain and prove see only a Model; the CLI, the MCP server and
// prove's confirmation choose the front end by file extension (or an
// explicit format name) through a [Registry], so they have no per-format
// code paths. A third format is a new package implementing [Format] and
// one line where the registry is built (docs/architecture.md).
//
// The concrete side of the seam is concrete.Machine, in the subpackage
// frontend/concrete: a format's states packed into words, the successors
// of a state with the label of each step, the packing hints of its words
// and the printing of labels. explore (and every search built on it)
// takes a concrete.Machine; it is a package of its own because this one
// reaches the symbolic engines, which the explicit engines must not
// import.
package frontend
