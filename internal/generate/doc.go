// Package generate turns a loaded FCSTM model into source code that runs
// it cycle for cycle as stateproof's runtime (internal/fcstm/runtime) does,
// so that the machine a verdict was computed on is the machine shipped.
//
// The code is generated from the constructed model (internal/fcstm/model),
// never from the source text: identifiers derived from names are
// sanitised and made unique, and every name a user sees is a string
// literal. A model the target cannot run exactly is refused with an
// *Unsupported error located in the model, and nothing is written.
//
// The targets and their guarantees are described in docs/generate.md.
package generate
