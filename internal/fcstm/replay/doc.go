// Package replay replays a decoded bounded trace on the FCSTM runtime
// (docs/fcstm.md, "Replay"): frame 0 becomes a cold start (its variables
// as initial-value overrides, which is what makes havoc replayable) or a
// hot start, every step's sparse input events drive one runtime cycle,
// and the frames, events, delta and abstract-call records the runtime
// shows are compared with the trace's, each disagreement with its path
// (frames[1].vars.x, steps[0].abstract_calls[0].snapshot.x).
//
// It is the concrete side of the FCSTM front end: it imports the runtime
// and nothing of the symbolic encoding, so a replayed witness is evidence
// independent of the encoder that produced it.
package replay
