package simulate

import (
	"bytes"
	"os"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// With Forget a session keeps no cycle: a long run needs constant memory
// (before, every cycle stayed in the report, about 3 KB each).
func TestFeedForgetKeepsNoCycle(t *testing.T) {
	const n = 30000
	for _, forget := range []bool{false, true} {
		s, err := Start(load(t, "door.fcstm"), "door", Options{Forget: forget})
		if err != nil {
			t.Fatal(err)
		}
		src := NewStepsSource([]byte("[" + strings.Repeat("[],", n-1) + "[]]"))
		var before, after goruntime.MemStats
		goruntime.GC()
		goruntime.ReadMemStats(&before)
		seen := 0
		if err := s.Feed(src, n, func(*CycleReport) { seen++ }); err != nil {
			t.Fatal(err)
		}
		goruntime.GC()
		goruntime.ReadMemStats(&after)
		grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		kept := len(s.Report().Cycles)
		if seen != n || s.Cycles() != n || s.Report().Stopped != nil {
			t.Errorf("forget %v: saw %d cycles, ran %d, stopped %v", forget, seen, s.Cycles(), s.Report().Stopped)
		}
		if forget && (kept != 0 || grown > 4<<20) {
			t.Errorf("forget: %d cycles kept, heap grew by %d bytes", kept, grown)
		}
		if !forget && kept != n {
			t.Errorf("keep: %d cycles kept", kept)
		}
	}
}

// Feed stops at the cap only when a further cycle exists.
func TestFeedCap(t *testing.T) {
	for _, tc := range []struct {
		cycles, max int
		stopped     bool
	}{{3, 3, false}, {4, 3, true}, {0, 1, false}} {
		s, err := Start(load(t, "door.fcstm"), "door", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Feed(&SliceSource{Cycles: make([][]string, tc.cycles)}, tc.max, nil); err != nil {
			t.Fatal(err)
		}
		if got := s.Report().Stopped != nil; got != tc.stopped || s.Cycles() != min(tc.cycles, tc.max) {
			t.Errorf("%d cycles, cap %d: stopped %v, ran %d", tc.cycles, tc.max, got, s.Cycles())
		}
	}
}

func TestLineSource(t *testing.T) {
	src := NewLineSource(strings.NewReader("a, b\n\nc"), "in", 100)
	var got [][]string
	for {
		c, ok, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, c)
	}
	if want := [][]string{{"a", "b"}, {}, {"c"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, _, err := NewLineSource(strings.NewReader(strings.Repeat("\n", 11)), "in", 10).Next(); err != nil {
		t.Errorf("the first line is within the limit: %v", err)
	}
	src = NewLineSource(strings.NewReader(strings.Repeat("\n", 11)), "in", 10)
	var err error
	for ok := true; ok && err == nil; _, ok, err = src.Next() {
	}
	if err == nil || !strings.Contains(err.Error(), "in is larger than the input limit of 10 bytes") {
		t.Errorf("error %v", err)
	}
}

// A JSON model runs in the shell too: its events complete, history and
// init work as for FCSTM.
func TestShellJSONModel(t *testing.T) {
	data, err := os.ReadFile("../../../examples/order.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := jsonmodel.Decode(data)
	if err != nil || !res.Valid() {
		t.Fatalf("%v %v", err, res.Errors)
	}
	s, err := StartJSON(res.Model, "order.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sh := NewShell(s, &out)
	if line, _, _ := sh.Complete("pa", 2, '\t'); line != "pay " {
		t.Errorf("complete: %q", line)
	}
	sh.Line("pay")
	if sh.Prompt() != "PAID> " {
		t.Errorf("prompt %q", sh.Prompt())
	}
	out.Reset()
	sh.Line("history")
	if out.String() != "    1  [pay]  → PAID\n" {
		t.Errorf("history %q", out.String())
	}
	sh.Line("init SHIPPED retry=2 paid=true")
	if v, _ := s.Report().Initial.Vars.Get("retry"); sh.Prompt() != "SHIPPED> " || v != expr.IntVal(2) {
		t.Errorf("hot start: %q, retry %v", sh.Prompt(), v)
	}
}
