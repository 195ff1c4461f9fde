// Package spill keeps the parts of a breadth-first search that outgrow
// memory on disk: append-only files of fixed-size records (a search's node
// words and parent links) and sorted runs of (key, value) records with an
// in-memory block index each and one Bloom filter over them all, which
// answer batches of sorted queries by one forward pass over each run.
//
// Why not an embedded store (pebble): the search needs exactly two access
// patterns — append in discovery order, and "which of these sorted keys are
// stored" once per breadth-first level — and both are a forward pass over
// files of fixed-width records. A log-structured store would add a
// write-ahead log, compactions running beside the search, variable-length
// encoding and a second copy of every key in its memtable, all of which
// cost memory and disk the budget is meant to bound, and a dependency
// tree of its own; its Bloom filters and sorted runs are the two ideas
// this package keeps, in a few hundred lines whose disk use is exact and
// accounted against --max-disk before a byte is written.
//
// Everything a Dir writes lives under one fresh directory, removed by
// Close; a write that would pass the disk budget fails with ErrDiskBudget
// and writes nothing.
package spill
