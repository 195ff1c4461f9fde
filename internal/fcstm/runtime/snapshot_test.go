package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// A runtime restored to another's snapshot runs every cycle as the other
// does, and a cycle's events outside Readable, or outside what the cycle
// Tested, change nothing.
func TestSnapshotRestore(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		src := fcstmtest.RandomRaisingModel(seed)
		m, err := model.Parse("test.fcstm", src, model.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		a, err := New(m, Options{})
		if err != nil {
			continue
		}
		b, _ := New(m, Options{})
		rng := rand.New(rand.NewPCG(seed, 3))
		events := a.EventPaths()
		for step := 0; step < 30 && !a.Ended(); step++ {
			var in, readIn []string
			readable := a.Readable()
			for i, e := range events {
				if rng.IntN(2) == 0 {
					in = append(in, e)
					if slices.Contains(readable, i) {
						readIn = append(readIn, e)
					}
				}
			}
			before := a.Snapshot(Snapshot{})
			_, errA := a.Cycle(in)
			var testedIn []string
			for _, i := range a.Tested() {
				if slices.Contains(in, events[i]) {
					testedIn = append(testedIn, events[i])
				}
			}
			sa := a.Snapshot(Snapshot{})
			var nums []int
			for i, e := range events {
				if slices.Contains(in, e) {
					nums = append(nums, i)
				}
			}
			for k, sub := range [][]string{readIn, testedIn, in} {
				if err := b.Restore(before); err != nil {
					t.Fatalf("seed %d step %d: %v", seed, step, err)
				}
				var errB error
				if k < 2 {
					_, errB = b.Cycle(sub)
				} else {
					errB = b.Step(nums) // Step is Cycle without the trace
				}
				sb := b.Snapshot(Snapshot{})
				if fmt.Sprint(errA) != fmt.Sprint(errB) || sa.Control != sb.Control || fmt.Sprint(sa.Vars) != fmt.Sprint(sb.Vars) {
					t.Fatalf("seed %d step %d: inputs %v give %v %v %v, their part %v gives %v %v %v\n%s",
						seed, step, in, errA, a.State(), sa.Vars, sub, errB, b.State(), sb.Vars, src)
				}
			}
			checkNext(t, b, before, nums, errA, sa)
		}
	}
}

// checkNext checks that Next from before on nums reaches want (or fails
// with wantErr) and leaves r at before.
func checkNext(t *testing.T, r *Runtime, before Snapshot, nums []int, wantErr error, want Snapshot) {
	t.Helper()
	if err := r.Restore(before); err != nil {
		t.Fatal(err)
	}
	err := r.Next(nums)
	got := Snapshot{Control: string(r.AppendNextControl(nil)), Vars: slices.Clone(r.NextVars())}
	if wantErr != nil {
		want = before // an error changes nothing
	}
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || got.Control != want.Control || fmt.Sprint(got.Vars) != fmt.Sprint(want.Vars) {
		t.Fatalf("Next(%v) gives %v %q %v, Cycle %v %q %v", nums, err, got.Control, got.Vars, wantErr, want.Control, want.Vars)
	}
	for i, v := range got.Vars {
		if r.NextWrote()&(1<<min(i, 63)) == 0 && v != before.Vars[i] {
			t.Fatalf("Next(%v) changed variable %d from %v to %v outside NextWrote %b", nums, i, before.Vars[i], v, r.NextWrote())
		}
	}
	if now := r.Snapshot(Snapshot{}); now.Control != before.Control || fmt.Sprint(now.Vars) != fmt.Sprint(before.Vars) {
		t.Fatalf("Next(%v) moved the runtime from %q %v to %q %v", nums, before.Control, before.Vars, now.Control, now.Vars)
	}
}

func TestRestoreRejects(t *testing.T) {
	r := parsed(t, "def int x = 0;\nstate R { state A; [*] -> A; }\n", Options{})
	good := r.Snapshot(Snapshot{})
	for _, s := range []Snapshot{
		{Control: "", Vars: good.Vars},
		{Control: "\x01\x00\x00\x00\x00\x00\x00\x00\x00", Vars: good.Vars}, // the root below itself
		{Control: "\x01\x08\x00\x00\x00", Vars: good.Vars},                 // the root is not state 1
		{Control: good.Control},
	} {
		if err := r.Restore(s); err == nil {
			t.Errorf("Restore(%q, %v) accepted", s.Control, s.Vars)
		}
	}
	if err := r.Restore(good); err != nil {
		t.Error(err)
	}
}
