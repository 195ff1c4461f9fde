package formats

import (
	"slices"
	"testing"
)

// Every format is registered once, and each claims its own extension.
func TestRegistry(t *testing.T) {
	r := Registry()
	if got := r.Names(); !slices.Equal(got, []string{"json", "fcstm"}) {
		t.Fatalf("formats %v", got)
	}
	for path, want := range map[string]string{"a/order.json": "json", "door.FCSTM": "fcstm"} {
		if f, err := r.For(path, ""); err != nil || f.Name() != want {
			t.Errorf("%s: %v, %v; want %s", path, f, err, want)
		}
	}
	if _, err := r.For("model.yaml", ""); err == nil {
		t.Error("an unknown extension was accepted")
	}
}
