package simulate

import (
	"reflect"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// After the machine ended a cycle does nothing: its events are canonical
// paths (relative inputs resolved from the root), an input naming no event
// is dropped, never echoed as given (issue 27 item 6), and none is
// unconsumed, as pyfcstm reports [] (issue 38 item 5).
func TestUnconsumedAfterEnd(t *testing.T) {
	m, err := model.Parse("end.fcstm", "state R {\n    state A;\n    [*] -> A;\n    A -> [*] :: Stop;\n}\n", model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(m, "end.fcstm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Step(nil)
	if c := s.Step([]string{"Stop"}); !c.Ended {
		t.Fatalf("not ended: %+v", c)
	}
	for _, in := range [][]string{{"A.Stop"}, {"/A.Stop", "R.A.Stop"}, {"Nope"}, {"A.Stop", "Nope"}} {
		c := s.Step(in)
		want := []string{"R.A.Stop"}
		if in[0] == "Nope" {
			want = []string{}
		}
		if c.Error != nil || len(c.Unconsumed) != 0 || !reflect.DeepEqual(c.Events, want) || len(c.Consumed) != 0 {
			t.Errorf("%v after the end: events %q consumed %q unconsumed %q error %v; want events %q, none unconsumed", in, c.Events, c.Consumed, c.Unconsumed, c.Error, want)
		}
	}
}
