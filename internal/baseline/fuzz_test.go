package baseline

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any bytes give a baseline report or an error; a parsed
// report compares with itself without change.
func FuzzParse(f *testing.F) {
	goldens, _ := filepath.Glob("../../cmd/stateproof/testdata/golden/*.json")
	for i, g := range goldens {
		if i%4 != 0 { // a sample of verify and compose reports is enough
			continue
		}
		if data, err := os.ReadFile(g); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"schema":"logicprobe/verify/v1"}`,
		`{"schema":"logicprobe/verify/v1","ran":true,"verdict":"pass","checks":[]}`,
		`{"schema":"logicprobe/verify/v1","ran":true,"verdict":"fail","checks":[{"id":"S1","findings":[{"code":"X","severity":"error","message":"m","evidence":{"a":[1,2]},"path":[]}]}]}`,
		`{"schema":"logicprobe/compose/v1","ran":true,"verdict":"pass","hashes":{"machines":["a",1]},"checks":[{"id":"C1","findings":{}}]}`,
		`{"schema":"logicprobe/verify/v1","ran":true,"verdict":"pass","checks":[{"findings":[]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		d := Compare(r, r)
		if len(d.Added) != 0 || len(d.Removed) != 0 {
			t.Errorf("a report differs from itself: %d added, %d removed", len(d.Added), len(d.Removed))
		}
	})
}
