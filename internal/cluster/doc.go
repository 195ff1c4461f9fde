// Package cluster runs the plain breadth-first exploration of `stateproof
// verify --partition I/N` over many processes, on one host or many, and
// settles it into the graph the one-process search builds, node for node.
//
// States are owned by a hash of their value. The search is level-
// synchronous: worker 0 asks every worker to expand its part of a level;
// a worker steps each of its frontier states and sends each successor, with
// its source's global index and the edge's rank among the source's
// successors, to the successor's owner in batches (Deliver), ending with a
// last batch to every peer. An owner keeps, for each successor it does not
// already own, the least (source index, edge rank): the edge the
// one-process search meets first, hence its canonical parent. Once every
// expansion of the level ended, worker 0 reads each owner's new states'
// keys in key order, merges them, and numbers the level's states in merged
// order after all earlier levels (Assign): exactly the discovery order of
// the one-process search. A cap counts every worker's states: once more
// than cap are settled (the one-process search stores cap+1, the last one
// proving there are more), the search ends, truncated.
//
// With Config.Spill a worker keeps the states it owns under a memory
// budget of its own: in the spilling search's store
// (explore.NewSpillingStore: the visited set's sorted runs and filter,
// node and link chunks evicted below the frontier), with each state's
// canonical parent and transition as its link there and its global index
// in a delta-coded list (a byte or two a state). Delivered successors
// the store cannot place from memory are placed in sorted batches
// (delayed duplicate detection): whenever a quarter of the budget's worth
// of them is held, and once the level is in; those it owns are dropped.
// A level wider than a quarter of the budget goes to sorted chunks on
// disk and is merged, deduplicated and put in key order there
// (levelchunk.go). The store is fitted to the budget after each level is stored. A
// spill that fails (the disk budget) fails the run: undecided.
//
// Then worker 0 gathers every worker's states in global order into an
// explore.Graph and the verify checks run over it on worker 0 alone; or,
// with Config.Summarize (checks that read no more than which locations
// the exploration reached, the least state where each of Config.Probes
// holds and the least that shows each key of Config.Marks), it gathers
// no state: each owner reports its least global index per location,
// probe and mark, worker 0 keeps the least and follows each hit's
// canonical parents across owners (Node) for its path,
// so its memory does not grow with the graph (docs/scale.md).
//
// Failure is never a result: every call has a deadline (the peer
// timeout), worker 0 polls the level's progress (each answer waits at most
// a third of the timeout) and pings the others while it works alone, and a
// worker that hears nothing from worker 0 for the timeout gives up. A dead
// or silent worker, a refused token or a plan mismatch ends the run on
// every surviving worker with an *Error, which the command reports as
// undecided (exit 3).
//
// The service is gRPC (google.golang.org/grpc) with hand-written method
// descriptors and a raw-bytes codec forced on the server and on every call
// (never registered globally): each message is a few varints encoded by
// hand (wire.go), so no protoc or generated code is needed. States and
// step labels travel in their machine's portable encoding
// (concrete.Portable): a format's words may mean something only in the
// process that made them (the JSON runtime's big integers are handles into
// its own table, the FCSTM machine numbers locations as it meets them), so
// any format whose machine is Portable is searched over many processes. Every call carries a shared token in its metadata,
// checked by a server interceptor in constant time; TLS (mutual, with a
// CA) is optional.
package cluster
