// Package input reads the files a command is given (models, state
// mappings, baselines, queries, RSC and SMT-LIB files) with one size limit,
// optionally confined to a root directory, so that hostile input (a device
// that never ends, a symlink out of the served tree) gets an error instead
// of unbounded memory or a file it should not see. ReadFileIn reads the
// files a model names itself (FCSTM imports) only when they are regular
// files inside an import root, deciding before it reads anything.
package input
