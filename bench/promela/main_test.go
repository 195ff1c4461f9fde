package main

import (
	"strings"
	"testing"
)

func TestPromelaModels(t *testing.T) {
	var b strings.Builder
	if err := run([]string{"counter", "7"}, &b); err != nil || !strings.Contains(b.String(), "#define N 7") {
		t.Errorf("counter: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := run([]string{"toggles", "3"}, &b); err != nil || strings.Count(b.String(), "d_step") != 3 || !strings.Contains(b.String(), "bit b2 = 0;") {
		t.Errorf("toggles: %v\n%s", err, b.String())
	}
	for _, bad := range [][]string{{"counter"}, {"counter", "x"}, {"counter", "0"}, {"toggles", "65"}, {"ring", "3"}} {
		if err := run(bad, &b); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
