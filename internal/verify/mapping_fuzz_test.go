package verify

import (
	"os"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// FuzzStateMapping: any bytes give a mapping or an error, and a mapping
// the BEFORE model accepts runs the comparison without a panic.
func FuzzStateMapping(f *testing.F) {
	before, err := os.ReadFile("../../examples/compare/rename-before.json")
	if err != nil {
		f.Fatal(err)
	}
	after, err := os.ReadFile("../../examples/compare/rename-after.json")
	if err != nil {
		f.Fatal(err)
	}
	b, _ := jsonmodel.Decode(before)
	a, _ := jsonmodel.Decode(after)
	if m, err := os.ReadFile("../../examples/compare/rename-mapping.json"); err == nil {
		f.Add(m)
	}
	for _, s := range []string{`{}`, `[]`, `"x"`, `{"a":1}`, `{"a":"b","a":"c"}`, `{"\u0000":"\ud800"}`, `null`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonvalue.Parse(data)
		if err != nil {
			return
		}
		m, err := MappingFromJSON(v)
		if err != nil {
			return
		}
		if CheckMapping(b.Model, m) != nil {
			return
		}
		opts := DefaultOptions()
		opts.MaxStates = 200
		RunComparison(a, b, m, opts)
	})
}
