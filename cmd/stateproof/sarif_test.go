package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/schematest"
)

// sarifLog is the part of a SARIF log the tests read.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Version string
				Rules   []struct {
					ID               string
					ShortDescription struct{ Text string }
					FullDescription  struct{ Text string }
					Help             struct{ Text, Markdown string }
					HelpURI          string `json:"helpUri"`
				}
			}
		}
		AutomationDetails struct{ ID string }
		Results           []struct {
			RuleID    string
			Locations []struct {
				PhysicalLocation struct {
					Region struct{ StartLine, StartColumn, EndLine, EndColumn int }
				}
			}
			CodeFlows []struct {
				ThreadFlows []struct {
					Locations []struct {
						State map[string]struct{ Text string }
					}
				}
			}
		}
	}
}

func readSARIF(t *testing.T, label, out string) sarifLog {
	t.Helper()
	schematest.SARIF(t, label, []byte(out))
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%s: %d runs", label, len(log.Runs))
	}
	return log
}

// TestSARIFForCodeScanning: the SARIF of verify, compose, bmc and prove satisfy the
// official schema and carry what GitHub code scanning shows: rules with
// descriptions, help and a link into docs/, regions with both ends, a
// counterexample as a code flow step by step, a category per command and
// input, and the binary's own version.
func TestSARIFForCodeScanning(t *testing.T) {
	cases := []struct {
		label, rule, category string
		args                  []string
		flowSteps             int // the counterexample's length, 0 for no flow
	}{
		{"verify s7", "S7_INVARIANT_VIOLATION", "stateproof-verify/../../examples/broken/s7-scoped-range.json/",
			[]string{"verify", "../../examples/broken/s7-scoped-range.json", "--format", "sarif"}, -1},
		{"compose", "C1_COMPOSITION_DEADLOCK", "stateproof-compose/../../examples/compose/handshake-client.json+../../examples/compose/handshake-server.json/",
			[]string{"compose", "../../examples/compose/handshake-client.json", "../../examples/compose/handshake-server.json", "--rendezvous", "req,ack", "--format", "sarif"}, 2},
		{"bmc", "BMC_PROPERTY_VIOLATED", "stateproof-bmc/../../examples/order.json/",
			[]string{"bmc", "../../examples/order.json", "--check", `check forbid <= 6: active("SHIPPED");`, "--format", "sarif"}, 6},
		// Undecided without a race against the clock (a 1 ms budget now
		// runs out while loading on a loaded machine, before any report).
		{"bmc undecided", "BMC_INCOMPLETE", "stateproof-bmc/../../examples/order.json/",
			[]string{"bmc", "../../examples/order.json", "--check", `check response <= 1: trigger true -> within 2 false;`, "--format", "sarif"}, 0},
		{"prove", "PROVE_VIOLATED", "stateproof-prove/../../examples/fcstm/retry.fcstm/",
			[]string{"prove", "../../examples/fcstm/retry.fcstm", "--rsc", "../../examples/fcstm/retry-broken.rsc", "--format", "sarif"}, -1},
		{"verify fcstm", "", "stateproof-verify/../../examples/fcstm/washing_machine.fcstm/",
			[]string{"verify", "../../examples/fcstm/washing_machine.fcstm", "--format", "sarif"}, 0},
	}
	for _, c := range cases {
		t.Run(c.label, func(t *testing.T) {
			out, _, _ := runCLI(t, c.args...)
			run := readSARIF(t, c.label, out).Runs[0]
			if v := run.Tool.Driver.Version; v == "" || v != buildVersion() {
				t.Errorf("driver version %q, want the build's %q", v, buildVersion())
			}
			if run.AutomationDetails.ID != c.category {
				t.Errorf("automationDetails.id %q, want %q", run.AutomationDetails.ID, c.category)
			}
			for _, r := range run.Tool.Driver.Rules {
				if r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Markdown == "" ||
					!strings.HasPrefix(r.HelpURI, "https://github.com/stateproof/stateproof/blob/main/docs/") {
					t.Errorf("rule %s lacks a description, help or docs link: %+v", r.ID, r)
				}
			}
			found := false
			for _, res := range run.Results {
				reg := res.Locations[0].PhysicalLocation.Region
				if reg.EndLine < reg.StartLine || reg.EndLine == reg.StartLine && reg.EndColumn <= reg.StartColumn {
					t.Errorf("%s: region %+v has no extent", res.RuleID, reg)
				}
				if res.RuleID != c.rule {
					continue
				}
				found = true
				if c.flowSteps == 0 {
					continue
				}
				if len(res.CodeFlows) != 1 || len(res.CodeFlows[0].ThreadFlows) != 1 {
					t.Fatalf("%s: code flows %+v", res.RuleID, res.CodeFlows)
				}
				steps := res.CodeFlows[0].ThreadFlows[0].Locations
				if c.flowSteps > 0 && len(steps) != c.flowSteps || len(steps) == 0 {
					t.Errorf("%s: %d flow steps, want %d", res.RuleID, len(steps), c.flowSteps)
				}
				for _, s := range steps {
					if s.State["from"].Text == "" || s.State["event"].Text == "" || s.State["to"].Text == "" {
						t.Errorf("%s: a flow step without state and event: %+v", res.RuleID, s)
					}
				}
			}
			if c.rule != "" && !found {
				t.Errorf("no %s result in\n%s", c.rule, out)
			}
		})
	}
}
