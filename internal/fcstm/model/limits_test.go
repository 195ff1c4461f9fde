package model

import (
	"fmt"
	"strings"
	"testing"
)

// TestImportLimits: import chains, fan-out and file sizes are bounded and
// end in a located error.
func TestImportLimits(t *testing.T) {
	fs := memFS{}
	for i := 0; i < 40; i++ { // u0 imports u1 imports … u39
		fs[fmt.Sprintf("u%d.fcstm", i)] = fmt.Sprintf(`state U%d { import "u%d.fcstm" as Next; [*] -> Next; }`, i, i+1)
	}
	fs["u40.fcstm"] = "state Leaf;"
	var fan strings.Builder
	fan.WriteString("state R {\n")
	for i := 0; i <= MaxImportedFiles; i++ {
		fmt.Fprintf(&fan, "  import \"u40.fcstm\" as L%d;\n", i)
	}
	fan.WriteString("  [*] -> L0;\n}\n")
	fs["big.fcstm"] = "state Big;" + strings.Repeat(" ", MaxFileSize)
	tests := []struct {
		name, src, code, msg string
	}{
		{"deep chain", `state R { import "u0.fcstm" as U; [*] -> U; }`, "E_IMPORT_LIMIT", "nested more than 16 deep"},
		{"fan-out", fan.String(), "E_IMPORT_LIMIT", "more than 256 imported files"},
		{"large file", `state R { import "big.fcstm" as B; [*] -> B; }`, "E_IMPORT", "larger than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("m.fcstm", tc.src, Options{ReadFile: fs.read})
			e := firstError(err)
			if e == nil || e.Code != tc.code || !strings.Contains(e.Msg, tc.msg) || !e.Pos.IsValid() {
				t.Fatalf("got %v, want %s containing %q", err, tc.code, tc.msg)
			}
		})
	}
}
