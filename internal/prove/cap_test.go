package prove

import (
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
)

// The cap keeps the protected head (false and the property) and the
// smallest of the rest, and says how many it left out.
func TestCapCandidates(t *testing.T) {
	var fs []expr.Expr
	for _, s := range []string{"false", "x + y + z <= 9", "x <= 1", "x + y <= 2", "y >= 0", "x + y + z + w == 0"} {
		f, err := expr.ParseExpr(s)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	got, dropped := capCandidates(fs, 2, 4)
	var txt []string
	for _, f := range got {
		txt = append(txt, expr.Format(f))
	}
	want := []string{"false", "x + y + z <= 9", "x <= 1", "y >= 0"}
	if dropped != 2 || len(txt) != len(want) {
		t.Fatalf("kept %v, dropped %d; want %v, 2", txt, dropped, want)
	}
	for i := range want {
		if txt[i] != want[i] {
			t.Errorf("kept %v, want %v", txt, want)
			break
		}
	}
	if same, d := capCandidates(fs, 2, 10); d != 0 || len(same) != len(fs) {
		t.Errorf("under the cap: kept %d, dropped %d", len(same), d)
	}
}
