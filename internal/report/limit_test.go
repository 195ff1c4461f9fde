package report

import (
	"strings"
	"testing"
)

// Findings past the listing limit still count: in the status, the
// severity totals, the detail and the verdict (with the first error code
// even when that error is not listed).
func TestCheckLimitKeepsTotals(t *testing.T) {
	c := Check{ID: "X", Detail: "d"}
	for range 5 {
		c.Findings = append(c.Findings, Finding{Code: "W", Severity: Warning})
	}
	c.Findings = append(c.Findings, Finding{Code: "E", Severity: Error})
	c.Limit(2)
	if len(c.Findings) != 2 || c.Unlisted.Total() != 4 {
		t.Fatalf("listed %d, unlisted %d", len(c.Findings), c.Unlisted.Total())
	}
	if c.Count(Error) != 1 || c.Count(Warning) != 5 || c.Status() != Fail {
		t.Errorf("counts %d/%d status %s", c.Count(Error), c.Count(Warning), c.Status())
	}
	if d := c.FullDetail(); d != "d (1 errors, 5 warnings; 2 of 6 findings listed)" {
		t.Errorf("detail %q", d)
	}
	if v, reason := Verdict([]Check{c}); v != Fail || !strings.Contains(reason, "first: E") {
		t.Errorf("verdict %s %q", v, reason)
	}
	if c.JSON().Get("unlisted") != 4 {
		t.Errorf("unlisted = %v", c.JSON().Get("unlisted"))
	}
	all := Check{Findings: []Finding{{Code: "W", Severity: Warning}}}
	all.Limit(0)
	if len(all.Findings) != 1 || all.JSON().Get("unlisted") != nil {
		t.Errorf("Limit(0) must list all")
	}
}
