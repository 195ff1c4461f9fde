// Package lint checks an FCSTM model without running it: it loads the
// file (parse and construction), turns load errors into a failed report
// located on the file's lines, and runs the structural lints over the
// constructed model. The result is a logicprobe/verify/v1-shaped report
// (package report), as `stateproof verify MODEL.fcstm` prints it. The
// checks are described in docs/fcstm.md.
package lint
