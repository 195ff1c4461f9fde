package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exitTable reads docs/reports.md's exit-code table: for each code, the
// cell of each command column ("—" where the command never exits so).
func exitTable(t *testing.T) map[int]map[string]string {
	t.Helper()
	data, err := os.ReadFile("../../docs/reports.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "## Exit codes")
	if start < 0 {
		t.Fatal("docs/reports.md has no Exit codes section")
	}
	var header []string
	table := map[int]map[string]string{}
	row := regexp.MustCompile(`^\| ([0-4]) \|`)
	for _, line := range strings.Split(doc[start:], "\n")[1:] {
		if strings.HasPrefix(line, "## ") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case strings.HasPrefix(line, "| code |"):
			header = cells
		case row.MatchString(line):
			code := int(cells[0][0] - '0')
			table[code] = map[string]string{}
			for i, h := range header {
				if i < len(cells) {
					for _, name := range strings.Split(h, ", ") {
						table[code][name] = cells[i]
					}
				}
			}
		}
	}
	for code := 0; code <= 4; code++ {
		if table[code] == nil {
			t.Fatalf("docs/reports.md's exit-code table has no row for %d", code)
		}
	}
	return table
}

// TestExitCodeContract runs every command into each outcome it can have
// and checks the exit status against docs/reports.md's table (the row
// must name the command's outcome, not "—"), and that a JSON report says
// the same code in exit_code.
func TestExitCodeContract(t *testing.T) {
	table := exitTable(t)
	missing := filepath.Join(t.TempDir(), "missing.json")
	cases := []struct {
		name string
		code int
		args []string
	}{
		{"verify", 0, []string{"verify", "../../examples/order.json", "--json"}},
		{"verify", 1, []string{"verify", "../../examples/broken/s7-scoped-range.json", "--json"}},
		{"verify", 2, []string{"verify", "../../examples/broken/invalid-typo.json", "--json"}},
		{"verify", 2, []string{"verify", missing, "--json"}},
		{"verify", 2, []string{"verify", "../../examples/order.json", "--max-states", "-1"}},
		{"verify", 3, []string{"verify", "../../examples/order.json", "--max-states", "3", "--json"}},
		{"verify", 2, []string{"verify", "../../examples/broken/s7-scoped-range.json", "--legacy-exit-codes", "--json"}},
		{"compose", 1, []string{"compose", "../../examples/compose/handshake-client.json", "../../examples/compose/handshake-server.json", "--rendezvous", "req,ack", "--json"}},
		{"compose", 2, []string{"compose", missing, missing}},
		{"bmc", 0, []string{"bmc", "../../examples/order.json", "-q", "../../examples/queries/order-paid.fbmcq", "--json"}},
		{"bmc", 1, []string{"bmc", "../../examples/order.json", "--check", "check reach <= 2: false;", "--json"}},
		{"bmc", 2, []string{"bmc", "../../examples/order.json", "--check", "check reach"}},
		{"bmc", 3, []string{"bmc", "../../examples/order.json", "--check", `check reach <= 8: active("SHIPPED");`, "--timeout-ms", "1", "--json"}},
		{"prove", 0, []string{"prove", "../../bench/fib.smt2", "--json"}},
		{"prove", 1, []string{"prove", "../../bench/fib-unsafe.smt2", "--json"}},
		{"prove", 2, []string{"prove", missing}},
		{"prove", 3, []string{"prove", "../../examples/order.json", "--timeout-ms", "1", "--json"}},
		{"simulate", 0, []string{"simulate", "../../examples/fcstm/door.fcstm", "--events", "Door.Request"}},
		{"simulate", 1, []string{"simulate", "../../examples/fcstm/door.fcstm", "--events", "Nope"}},
		{"simulate", 2, []string{"simulate", missing}},
		{"draw", 0, []string{"draw", "../../examples/order.json"}},
		{"draw", 2, []string{"draw", missing}},
		{"show", 0, []string{"show", "../../examples/order.json"}},
		{"show", 2, []string{"show", missing}},
		{"schema", 0, []string{"schema", "model"}},
		{"schema", 2, []string{"schema", "no-such-schema"}},
		{"gen", 2, []string{"gen", "no-such-family", "3"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			if cell := table[c.code][c.name]; cell == "" || cell == "—" {
				t.Fatalf("docs/reports.md gives %s no exit %d (cell %q)", c.name, c.code, cell)
			}
			out, stderr, code := runCLI(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", code, c.code, stderr)
			}
			var rep map[string]any
			if json.Unmarshal([]byte(out), &rep) == nil && rep["$schema"] == nil { // a report, not a JSON Schema
				if got, ok := rep["exit_code"].(float64); !ok || int(got) != code {
					t.Errorf("JSON report exit_code %v, process exit %d", rep["exit_code"], code)
				}
			}
		})
	}
}
