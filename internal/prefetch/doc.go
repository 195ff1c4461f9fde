// Package prefetch asks the processor to bring a memory line into its
// cache without waiting for it. A search that knows which hash table
// slots it will probe next (the guessed next levels of a chain) issues
// their loads early this way: a plain load of each would have to finish
// before the instructions after it retire, and a few dozen of them in a
// row stall the processor for a memory round trip.
package prefetch
