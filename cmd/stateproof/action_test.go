package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionRunScript runs the GitHub Action's run step (release/run-action.sh)
// as the action does, with a stateproof built from this tree on PATH: one
// SARIF log with a run per verified file, and the step's exit code the
// worst of the runs (docs/reports.md#exit-codes), after the log is written.
func TestActionRunScript(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 (GitHub's runners have it; the action merges logs with it)")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "stateproof"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	outFile := filepath.Join(dir, "out.sarif")
	ghOut := filepath.Join(dir, "github-output")
	cmd := exec.Command("bash", "../../release/run-action.sh")
	cmd.Env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FILES=../../examples/order.json ../../examples/broken/s7-scoped-range.json",
		"COMMAND=verify", "ARGS=--max-states 100000", "SARIF="+outFile, "GITHUB_OUTPUT="+ghOut)
	out, err := cmd.CombinedOutput()
	code := cmd.ProcessState.ExitCode()
	if code != 1 {
		t.Fatalf("exit %d (%v), want 1: one model fails\n%s", code, err, out)
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			AutomationDetails struct{ ID string }
			Results           []struct{ RuleID string }
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	if len(log.Runs) != 2 || log.Runs[0].AutomationDetails.ID == log.Runs[1].AutomationDetails.ID {
		t.Errorf("want two runs with their own automationDetails.id, got %+v", log.Runs)
	}
	gh, _ := os.ReadFile(ghOut)
	if !strings.Contains(string(gh), "exit-code=1") || !strings.Contains(string(gh), "sarif="+outFile) {
		t.Errorf("step outputs:\n%s", gh)
	}
	cmd = exec.Command("bash", "../../release/run-action.sh")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"FILES=../../examples/order.json", "COMMAND=bmc", "ARGS=", "SARIF="+outFile)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "must be verify or compose") {
		t.Errorf("command bmc: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
	}
}
