// Package jsonmodel is the front end for JSON state-machine models, schema
// v1 (seed 004; docs/models.md).
//
// It owns every user-facing complaint about a model file: Decode refuses
// input that is not JSON, and Validate checks the closed schema, references,
// per-kind invariant keys, `when` scopes and narrative rules, collecting
// every error with its walker path (`transitions[3].guard.all[1].value`)
// instead of stopping at the first. A model that validates is returned as
// a typed Model; nothing downstream re-validates it.
//
// The package also computes the model hash (specs v0 and v1) and lists the
// `_`-prefixed metadata keys the run skipped.
package jsonmodel
