package main

import (
	"os/exec"
	"strings"
	"testing"
)

// deps lists the stateproof packages pkg depends on (internal/ prefix
// stripped), transitively.
func deps(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "github.com/stateproof/stateproof/internal/"+pkg).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	set := map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		if rest, ok := strings.CutPrefix(line, "github.com/stateproof/stateproof/internal/"); ok && rest != pkg {
			set[rest] = true
		}
	}
	return set
}

// TestArchitectureInvariants keeps the separations of docs/architecture.md:
// the concrete runtime and the explicit engines share no code with the
// symbolic encoding, bmc does not replay on the runtime it is checked
// against, and the proof rule checker shares no code with anything.
func TestArchitectureInvariants(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	symbolic := []string{"smt", "z3", "bmc", "query", "prove", "explain"}
	for _, pkg := range []string{"runtime", "explore", "verify", "compose", "fcstm/runtime", "fcstm/explicit", "fcstm/simulate", "fcstm/replay"} {
		d := deps(t, pkg)
		for _, s := range symbolic {
			if d[s] {
				t.Errorf("internal/%s depends on internal/%s: the concrete side must stay independent of the symbolic encoding", pkg, s)
			}
		}
	}
	if d := deps(t, "bmc"); d["runtime"] || d["explore"] {
		t.Errorf("internal/bmc depends on the runtime it is replayed against: %v", d)
	}
	if d := deps(t, "fcstm/lower"); d["fcstm/runtime"] || d["runtime"] {
		t.Errorf("internal/fcstm/lower (the FCSTM encoder) depends on the runtime it is replayed against: %v", d)
	}
	if d := deps(t, "explain/rulecheck"); len(d) != 0 {
		t.Errorf("internal/explain/rulecheck depends on %v: it must share no code with the proof constructor", d)
	}
}
