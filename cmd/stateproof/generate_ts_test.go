package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// tsBatch runs compiled TypeScript drivers in one node process (one start
// instead of one per run): argv[2] is a JSON list of jobs, each a compiled
// driver and its arguments; it writes the list of their outputs to
// argv[3]. DIR/run itself is tested in internal/generate.
const tsBatch = `const fs = require("fs");
const results = [];
for (const job of JSON.parse(fs.readFileSync(process.argv[2], "utf8"))) {
  let out = "", err = "", code;
  try {
    code = require(job.driver).main(job.args, {
      readFile: (p) => fs.readFileSync(p, "utf8"),
      out: (s) => { out += s; },
      err: (s) => { err += s; },
    });
  } catch (e) {
    err += String((e && e.stack) || e);
    code = -1;
  }
  results.push({ out, stderr: err, code });
}
fs.writeFileSync(process.argv[3], JSON.stringify(results));
`

// runTypeScriptDrivers compiles every generated module and driver with
// one tsc run (--strict: a type error fails the test) and runs every job
// in one node process (tsBatch).
func runTypeScriptDrivers(t *testing.T, work string, names []string, jobs []driverJob) []driverOut {
	tsc := browsertest.TypeScriptCompiler(t)
	out := filepath.Join(work, "js")
	args := []string{"--strict", "--skipLibCheck", "--target", "ES2020", "--lib", "es2020", "--module", "commonjs", "--rootDir", work, "--outDir", out}
	for _, n := range names {
		ts, _ := filepath.Glob(filepath.Join(work, n, "*.ts"))
		args = append(args, ts...)
	}
	start := time.Now()
	if msg, err := exec.Command(tsc, args...).CombinedOutput(); err != nil {
		t.Fatalf("tsc --strict of the generated modules: %v\n%s", err, msg)
	}
	t.Logf("tsc of %d generated modules: %v", len(names), time.Since(start).Round(time.Millisecond))
	type tsJob struct {
		Driver string   `json:"driver"`
		Args   []string `json:"args"`
	}
	var in []tsJob
	for _, j := range jobs {
		in = append(in, tsJob{filepath.Join(out, j.name, "driver.js"), j.args})
	}
	data, _ := json.Marshal(in)
	script, jobsFile, outFile := filepath.Join(work, "batch.js"), filepath.Join(work, "jobs.json"), filepath.Join(work, "results.json")
	for file, data := range map[string][]byte{script: []byte(tsBatch), jobsFile: data} {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start = time.Now()
	if msg, err := exec.Command("node", script, jobsFile, outFile).CombinedOutput(); err != nil {
		t.Fatalf("node batch of the generated drivers: %v\n%s", err, msg)
	}
	t.Logf("node batch of %d driver runs: %v", len(jobs), time.Since(start).Round(time.Millisecond))
	var outs []driverOut
	data, err := os.ReadFile(outFile)
	if err == nil {
		err = json.Unmarshal(data, &outs)
	}
	if err != nil || len(outs) != len(jobs) {
		t.Fatalf("node batch: %d results of %d (%v)", len(outs), len(jobs), err)
	}
	return outs
}
