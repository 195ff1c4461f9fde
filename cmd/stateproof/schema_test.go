package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
)

// TestReportsSatisfySchemas runs every kind of JSON report the CLI writes —
// bmc (each example query, the explanation corpus, --bound), prove, verify
// comparisons, baselines, refusals, FCSTM models and FCSTM load errors — and validates each against the
// schema its "schema" field names. (The golden verify and compose reports
// are validated by the schemas package.)
func TestReportsSatisfySchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the solver on every example query")
	}
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	if _, _, code := runCLI(t, "verify", "../../examples/compare/removed-before.json", "--json", "-o", base); code != 0 {
		t.Fatalf("verify exit %d", code)
	}
	notJSON := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(notJSON, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := [][]string{
		{"bmc", "../../examples/order.json", "-q", "../../examples/queries/order-paid.fbmcq"},
		{"bmc", "../../examples/retry.json", "--bound", "6"},
		{"bmc", "../../examples/order.json", "--check", `check reach <= 8: active("SHIPPED") && retry == 2;`, "--shortest"},
		{"prove", "../../examples/retry.json"},
		{"prove", "../../examples/retry.json", "--rsc", "../../examples/retry.rsc", "--infer"},
		{"prove", "../../bench/retry-unbounded-unsafe.json"},
		{"verify", "../../examples/compare/removed-after.json", "--before-model", "../../examples/compare/removed-before.json", "--baseline", base},
		{"compose", "../../examples/compose/handshake-client.json", "../../examples/compose/handshake-server.json", "--rendezvous", "req,ack", "--baseline", base},
		{"verify", notJSON},
		{"compose", notJSON, "../../examples/order.json"},
		{"verify", "../../examples/order.json", "--baseline", "../../examples/order.json"},
	}
	queries, _ := filepath.Glob("../../examples/queries/*.fbmcq")
	for _, q := range queries {
		model := "../../examples/" + strings.SplitN(filepath.Base(q), "-", 2)[0] + ".json"
		runs = append(runs, []string{"bmc", model, "-q", q})
	}
	explain, _ := filepath.Glob("../../examples/explain/*.fbmcq")
	for _, q := range explain {
		runs = append(runs, []string{"bmc", "../../examples/latch.json", "-q", q, "--explain", "proof"})
	}
	fcstm, _ := filepath.Glob("../../examples/fcstm/*.fcstm")
	for _, m := range fcstm {
		runs = append(runs, []string{"verify", m})
	}
	broken := filepath.Join(dir, "broken.fcstm")
	if err := os.WriteFile(broken, []byte("state Root {\n  [*] -> Missing;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs = append(runs, []string{"verify", broken})
	if len(queries) < 5 || len(explain) < 10 {
		t.Fatalf("found %d example queries and %d explanation queries", len(queries), len(explain))
	}
	for _, args := range runs {
		out, errOut, _ := runCLI(t, append(args, "--json")...)
		if out == "" {
			t.Errorf("%s: no report (%s)", strings.Join(args, " "), errOut)
			continue
		}
		schematest.Report(t, strings.Join(args, " "), []byte(out))
	}
}
