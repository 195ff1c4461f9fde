package prove

import (
	"fmt"
	"strings"
	"testing"
)

// A state of many variables is clipped in text and says how many are
// left out; a small one is printed whole.
func TestAssignTextClipped(t *testing.T) {
	var as []Assignment
	for i := range 2000 {
		as = append(as, Assignment{Name: fmt.Sprint("x", i), Value: "0"})
	}
	got := assignText(as)
	if strings.Count(got, "=") != shownAssignments || !strings.Contains(got, "… 1976 more (all in --json)") {
		t.Errorf("2,000 variables print as %.200s", got)
	}
	if got := assignText(as[:2]); got != "{x0=0, x1=0}" {
		t.Errorf("two variables print as %s", got)
	}
}
