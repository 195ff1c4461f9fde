package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// The targets of the conformance tests of generate_test.go, and how each
// runs its generated drivers.

// genTarget is one target of the conformance tests: run runs the drivers
// generated into work/NAME (names lists them all) on every job, skipping
// the test without the target's toolchain (failing it under CI=true).
type genTarget struct {
	name string
	run  func(t *testing.T, work string, names []string, jobs []driverJob) []driverOut
	// outside reports why a document differing from simulate's is outside
	// the target's domain (a result the target cannot represent, which
	// the runtime's document shows), or "" when the difference is a
	// failure; nil for a target with the runtime's whole domain.
	outside func(got, want string) string
}

// driverJob is one run of the driver of the case generated as name.
type driverJob struct {
	name string
	args []string
}

// driverOut is what a driver printed and its exit status.
type driverOut struct {
	Out    string `json:"out"`
	Stderr string `json:"stderr"`
	Code   int    `json:"code"`
}

// genTargets lists the targets every conformance test checks.
func genTargets() []genTarget {
	return []genTarget{{"c", runCDrivers, cOutside}, {"go", runGoDrivers, nil}, {"python", runPythonDrivers, nil}, {"typescript", runTypeScriptDrivers, nil}}
}

// runCDrivers compiles every generated C driver (buildCDrivers) and runs
// it once per job.
func runCDrivers(t *testing.T, work string, names []string, jobs []driverJob) []driverOut {
	bins := buildCDrivers(t, work, names)
	outs := make([]driverOut, len(jobs))
	for i, j := range jobs {
		bin := bins[j.name]
		if len(bin) == 0 {
			outs[i] = driverOut{Code: -1, Stderr: "not built (see the compiler's error above)"}
			continue
		}
		outs[i] = runDriver(t, j.name, exec.Command(bin[0], j.args...))
	}
	return outs
}

// runDriver runs one driver command and returns what it printed.
func runDriver(t *testing.T, name string, cmd *exec.Cmd) driverOut {
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	var d driverOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		d.Code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	d.Out, d.Stderr = out.String(), stderr.String()
	return d
}

// runGoDrivers builds one program running every generated Go driver and
// runs it once per job.
func runGoDrivers(t *testing.T, work string, names []string, jobs []driverJob) []driverOut {
	all := buildAllDrivers(t, needGo(t), work, names)
	outs := make([]driverOut, len(jobs))
	for i, j := range jobs {
		outs[i] = runDriver(t, j.name, exec.Command(all, append([]string{j.name}, j.args...)...))
	}
	return outs
}

// pythonBatch runs generated Python drivers in one interpreter (one start
// instead of one per run, most of the time of a run): argv[1] is a JSON
// list of jobs, each a driver's directory and arguments; it writes the
// list of their outputs to argv[2]. DIR/run itself is tested in
// internal/generate.
const pythonBatch = `import contextlib, importlib.util, io, json, os, sys, traceback
drivers, results = {}, []
for job in json.load(open(sys.argv[1])):
    d = drivers.get(job["dir"])
    if d is None:
        sys.path.insert(0, job["dir"])
        spec = importlib.util.spec_from_file_location("driver_" + os.path.basename(job["dir"]), os.path.join(job["dir"], "driver.py"))
        d = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(d)
        sys.path.pop(0)
        drivers[job["dir"]] = d
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = d.main(job["args"])
        except Exception:
            traceback.print_exc()
            code = -1
    results.append({"out": out.getvalue(), "stderr": err.getvalue(), "code": code})
json.dump(results, open(sys.argv[2], "w"))
`

// runPythonDrivers runs every job in one python3 process (pythonBatch).
func runPythonDrivers(t *testing.T, work string, _ []string, jobs []driverJob) []driverOut {
	py, err := exec.LookPath("python3")
	if err != nil {
		browsertest.Unavailable(t, "python3 is not installed: the generated Python code cannot run")
	}
	type pyJob struct {
		Dir  string   `json:"dir"`
		Args []string `json:"args"`
	}
	var in []pyJob
	for _, j := range jobs {
		in = append(in, pyJob{filepath.Join(work, j.name), j.args})
	}
	data, _ := json.Marshal(in)
	script, jobsFile, outFile := filepath.Join(work, "batch.py"), filepath.Join(work, "jobs.json"), filepath.Join(work, "results.json")
	for file, data := range map[string][]byte{script: []byte(pythonBatch), jobsFile: data} {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	if out, err := exec.Command(py, script, jobsFile, outFile).CombinedOutput(); err != nil {
		t.Fatalf("python3 batch of the generated drivers: %v\n%s", err, out)
	}
	t.Logf("python3 batch of %d driver runs: %v", len(jobs), time.Since(start).Round(time.Millisecond))
	var outs []driverOut
	data, err = os.ReadFile(outFile)
	if err == nil {
		err = json.Unmarshal(data, &outs)
	}
	if err != nil || len(outs) != len(jobs) {
		t.Fatalf("python3 batch: %d results of %d (%v)", len(outs), len(jobs), err)
	}
	return outs
}

// buildAllDrivers writes a program that runs the driver named by its first
// argument, and builds it with one go build in a workspace of every
// generated module.
func buildAllDrivers(t *testing.T, goCmd, work string, names []string) string {
	t.Helper()
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"os\"\n")
	for _, n := range names {
		fmt.Fprintf(&main, "\t%s \"%s/driver\"\n", n, n)
	}
	main.WriteString(")\n\nfunc main() {\n\tswitch os.Args[1] {\n")
	for _, n := range names {
		fmt.Fprintf(&main, "\tcase %q:\n\t\tos.Exit(%s.Main(os.Args[2:], os.Stdout, os.Stderr))\n", n, n)
	}
	main.WriteString("\t}\n\tos.Exit(2)\n}\n")
	dir := filepath.Join(work, "alldrivers")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for file, data := range map[string]string{"main.go": main.String(), "go.mod": "module alldrivers\n\ngo 1.22\n"} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gowork := "go 1.22\n\nuse (\n\t./alldrivers\n\t./" + strings.Join(names, "\n\t./") + "\n)\n"
	if err := os.WriteFile(filepath.Join(work, "go.work"), []byte(gowork), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "alldrivers.bin")
	// -trimpath keeps the temporary directory out of the build cache's
	// keys: a generated package the same as in an earlier run (the module
	// names and the models are stable) is not compiled again, which is
	// most of this test's time.
	build := exec.Command(goCmd, "build", "-trimpath", "-o", bin, "./alldrivers")
	build.Dir = work
	build.Env = append(os.Environ(), "GOWORK="+filepath.Join(work, "go.work"), "GOTOOLCHAIN=local", "GOFLAGS=")
	start := time.Now()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the generated packages: %v\n%s", err, out)
	}
	t.Logf("go build of %d generated drivers: %v", len(names), time.Since(start).Round(time.Millisecond))
	return bin
}
