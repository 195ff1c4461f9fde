package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// nested is a chain of n nested composites S0 (the root) … with one leaf
// at the bottom.
func nested(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%sstate S%d {\n", strings.Repeat(" ", i), i)
	}
	fmt.Fprintf(&b, "%sstate L;\n%s[*] -> L;\n", strings.Repeat(" ", n), strings.Repeat(" ", n))
	for i := n - 1; i >= 0; i-- {
		if i < n-1 {
			fmt.Fprintf(&b, "%s[*] -> S%d;\n", strings.Repeat(" ", i+1), i+1)
		}
		fmt.Fprintf(&b, "%s}\n", strings.Repeat(" ", i))
	}
	return b.String()
}

// A model nested deeper than the runtime's stack can hold constructs but
// can never run (issue 29 item 4): verify reports the first state too
// deep as an error at its line, and passes a model within the limit.
func TestDepthBeyondRuntimeLimit(t *testing.T) {
	res := CheckSource("deep.fcstm", []byte(nested(100)), model.Options{})
	var found []string
	for _, c := range res.Report.Checks {
		for _, f := range c.Findings {
			if f.Code == "FCSTM_DEPTH_LIMIT" {
				found = append(found, fmt.Sprintf("%s %v line %v", f.Target, f.Severity, f.Evidence.Get("line")))
			}
		}
	}
	if len(found) != 1 || !strings.HasSuffix(found[0], " line 65") || !strings.Contains(found[0], "S64") {
		t.Errorf("findings %v, want one error at S64 (line 65)", found)
	}
	res = CheckSource("ok.fcstm", []byte(nested(model.MaxDepth-1)), model.Options{})
	for _, c := range res.Report.Checks {
		for _, f := range c.Findings {
			if f.Code == "FCSTM_DEPTH_LIMIT" {
				t.Errorf("a model within the limit: %s", f.Message)
			}
		}
	}
}
