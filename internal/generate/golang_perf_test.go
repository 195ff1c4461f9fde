package generate

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// washerTest runs in the package generated from washing_machine.fcstm,
// on the loop of bench/generate-cycle.sh (Start on every 48th cycle,
// DoorOpened on the 47th after it, empty cycles between).
const washerTest = `package washer

import (
	"slices"
	"testing"
)

func loopEvents(i int, full bool) []string {
	switch i % 48 {
	case 0:
		if full || i == 0 { // the first cycle starts at the root
			return []string{EventWasher_Ready_Start}
		}
		return []string{"Start"} // relative to Washer.Ready
	case 47:
		if full {
			return []string{EventWasher_Done_DoorOpened}
		}
		return []string{"/Done.DoorOpened", ".Done.DoorOpened"} // from the root, from the parent: a duplicate
	}
	return nil
}

// TestCycleAllocatesNothing: once warm (one programme run), Cycle
// allocates nothing, whatever the cycle does: entering, leaving and
// staying in states, with events named in full, relatively or twice.
func TestCycleAllocatesNothing(t *testing.T) {
	for _, full := range []bool{true, false} {
		m, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		run := func() {
			for end := i + 48*4; i < end; i++ {
				if err := m.Cycle(loopEvents(i, full)); err != nil {
					t.Fatal(err)
				}
			}
		}
		run()
		if n := testing.AllocsPerRun(1, run); n != 0 {
			t.Errorf("full names %t: %v allocations in %d cycles, want 0", full, n, 48*4)
		}
	}
}

// TestCycleIsStep: Cycle (no trace) and Step (a trace) run the same
// machine.
func TestCycleIsStep(t *testing.T) {
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(Options{})
	for i := range 48 * 3 {
		if err := a.Cycle(loopEvents(i, i%96 < 48)); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Step(loopEvents(i, i%96 >= 48)); err != nil {
			t.Fatal(err)
		}
		if a.State() != b.State() || a.Ended() != b.Ended() || !slices.EqualFunc(a.Vars(), b.Vars(), sameValue) {
			t.Fatalf("cycle %d: Cycle gives %s %v, Step %s %v", i, a.State(), a.Vars(), b.State(), b.Vars())
		}
	}
}

// TestHooksKeepTheirCalls: Cycle calls the hooks Step calls, with the
// same context, and each call gets a Call of its own that the hook may
// keep (not one in buffers the next cycle reuses).
func TestHooksKeepTheirCalls(t *testing.T) {
	var kept [2][]*Call
	machine := func(k int) *Machine {
		m, err := New(Options{Hooks: map[string]Hook{"Washer.Done.Beep": func(c *Call) error {
			kept[k] = append(kept[k], c)
			return nil
		}}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b := machine(0), machine(1)
	for i := range 48 * 4 {
		if err := a.Cycle(loopEvents(i, true)); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Step(loopEvents(i, true)); err != nil {
			t.Fatal(err)
		}
	}
	if len(kept[0]) < 2 || len(kept[0]) != len(kept[1]) {
		t.Fatalf("Cycle called the hook %d times, Step %d times", len(kept[0]), len(kept[1]))
	}
	for i, c := range kept[0] {
		d := kept[1][i]
		if c.Action != d.Action || c.Stage != d.Stage || c.Role != d.Role || c.State != d.State || c.ActiveLeaf != d.ActiveLeaf ||
			!slices.EqualFunc(c.Vars, d.Vars, sameValue) {
			t.Errorf("call %d: Cycle gave %+v, Step %+v", i, *c, *d)
		}
		if i > 0 && (c == kept[0][i-1] || &c.Vars[0] == &kept[0][i-1].Vars[0]) {
			t.Errorf("calls %d and %d share their Call or variables", i-1, i)
		}
	}
}

func BenchmarkCycle(b *testing.B) {
	m, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := m.Cycle(loopEvents(i, true)); err != nil {
			b.Fatal(err)
		}
	}
}
`

// TestGoCycleAllocatesNothing generates washing_machine.fcstm and runs
// washerTest in the generated package with the real toolchain: a cycle
// of the generated Go allocates nothing once warm (issue 40: the
// generated Go within 2× of the C, which has no heap), and Cycle, which
// records no trace, runs the same machine as Step.
func TestGoCycleAllocatesNothing(t *testing.T) {
	goCmd := needGo(t)
	_, files := mustGenerate(t, "../../examples/fcstm/washing_machine.fcstm", "go", Options{Name: "washer"})
	dir := t.TempDir()
	files = append(files, File{Path: "go.mod", Data: []byte("module washer\n\ngo 1.22\n")},
		File{Path: "washer_test.go", Data: []byte(washerTest)})
	writeFiles(t, dir, files)
	cmd := exec.Command(goCmd, "test", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test in the generated package (%s): %v\n%s", filepath.Base(dir), err, out)
	}
}
