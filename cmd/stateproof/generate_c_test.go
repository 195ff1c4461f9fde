package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/browsertest"
)

// cFlags are the flags the generated C must compile cleanly with.
var cFlags = []string{"-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"}

// cOverflowMsg is the C target's error for an integer outside 64 bits.
const cOverflowMsg = "integer overflow (the C target has 64-bit integers)"

// needCC returns the C compiler, skipping the test without one (failing
// it under CI=true).
func needCC(t *testing.T) string {
	t.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		browsertest.Unavailable(t, "gcc is not installed: the generated C code cannot be built")
	}
	return cc
}

// buildCDrivers compiles each generated directory's driver and machine
// into one program, unoptimised (the compiler's time is most of this
// test's) but with every warning an error, a compiler per CPU at a time.
// With clang installed, every other model is compiled with clang: both
// compilers see the generated code at no extra cost.
func buildCDrivers(t *testing.T, work string, names []string) map[string][]string {
	t.Helper()
	ccs := []string{needCC(t)}
	if clang, err := exec.LookPath("clang"); err == nil {
		ccs = append(ccs, clang)
	}
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	start := time.Now()
	out := map[string][]string{}
	var mu sync.Mutex
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				dir := filepath.Join(work, n)
				bin := filepath.Join(dir, n+".bin")
				args := append(append([]string{}, cFlags...), "-O0", "-o", bin, filepath.Join(dir, "driver.c"), filepath.Join(dir, n+".c"), "-lm")
				cc := ccs[index[n]%len(ccs)]
				msg, err := exec.Command(cc, args...).CombinedOutput()
				mu.Lock()
				if err != nil {
					t.Errorf("%s: %s: %v\n%s", n, filepath.Base(cc), err, msg)
				} else {
					out[n] = []string{bin}
				}
				mu.Unlock()
			}
		}()
	}
	for _, n := range names {
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	t.Logf("%s of %d generated drivers: %v", strings.Join(ccs, ", "), len(names), time.Since(start).Round(time.Millisecond))
	return out
}

// cOutside accepts a difference only where the C document stops at its
// 64-bit overflow error and the runtime's document, identical up to
// there, shows an integer outside 64 bits in that very cycle (or in the
// initial variables when the start failed): the C code said it cannot
// compute the value instead of computing a wrong one.
func cOutside(got, want string) string {
	var g, w map[string]any
	dec := json.NewDecoder(strings.NewReader(got))
	dec.UseNumber()
	if dec.Decode(&g) != nil {
		return ""
	}
	dec = json.NewDecoder(strings.NewReader(want))
	dec.UseNumber()
	if dec.Decode(&w) != nil {
		return ""
	}
	if isOverflow(g["error"]) {
		if init, ok := w["initial"].(map[string]any); ok && hasBigInt(init["vars"]) {
			return "the start's variables go past 64 bits"
		}
		return ""
	}
	gc, _ := g["cycles"].([]any)
	wc, _ := w["cycles"].([]any)
	if !reflect.DeepEqual(g["initial"], w["initial"]) {
		return ""
	}
	for i := range gc {
		if i >= len(wc) {
			return ""
		}
		c, _ := gc[i].(map[string]any)
		if !isOverflow(c["error"]) {
			if !reflect.DeepEqual(gc[i], wc[i]) {
				return ""
			}
			continue
		}
		if wcy, _ := wc[i].(map[string]any); wcy != nil && wcy["error"] == nil && (hasBigInt(wcy["vars"]) || hasBigInt(wcy["abstractCalls"])) {
			return fmt.Sprintf("cycle %d goes past 64 bits", i+1)
		}
		return ""
	}
	return ""
}

func isOverflow(e any) bool {
	m, _ := e.(map[string]any)
	msg, _ := m["message"].(string)
	return m != nil && m["class"] == "target" && strings.Contains(msg, cOverflowMsg)
}

// hasBigInt reports whether a JSON value holds an integer outside int64.
func hasBigInt(v any) bool {
	switch v := v.(type) {
	case json.Number:
		s := v.String()
		if strings.ContainsAny(s, ".eE") {
			return false
		}
		_, err := strconv.ParseInt(s, 10, 64)
		return err != nil
	case map[string]any:
		for _, x := range v {
			if hasBigInt(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasBigInt(x) {
				return true
			}
		}
	}
	return false
}

// TestGenerateCCompiles: the generated C compiles without a warning under
// gcc (and clang and g++ when installed: C++ includes the header), and
// its object references no allocation function.
func TestGenerateCCompiles(t *testing.T) {
	cc := needCC(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "wm")
	if _, stderr, code := runCLI(t, "generate", "../../examples/fcstm/washing_machine.fcstm", "--target", "c", "-o", out, "--driver"); code != 0 {
		t.Fatalf("generate exit %d: %s", code, stderr)
	}
	src, obj := filepath.Join(out, "washing_machine.c"), filepath.Join(dir, "wm.o")
	compilers := [][]string{{cc}}
	if clang, err := exec.LookPath("clang"); err == nil {
		compilers = append(compilers, []string{clang})
	} else {
		t.Log("clang is not installed: checked with gcc only")
	}
	for _, c := range compilers {
		args := append(append([]string{}, cFlags...), "-O2", "-c", "-o", obj, src)
		if msg, err := exec.Command(c[0], args...).CombinedOutput(); err != nil || len(msg) > 0 {
			t.Errorf("%s %v: %v\n%s", c[0], args, err, msg)
		}
	}
	if msg, err := exec.Command(cc, append(append([]string{}, cFlags...), "-c", "-o", filepath.Join(dir, "d.o"), filepath.Join(out, "driver.c"))...).CombinedOutput(); err != nil {
		t.Errorf("driver: %v\n%s", err, msg)
	}
	syms, err := exec.Command("nm", "-u", obj).Output()
	if err != nil {
		t.Fatalf("nm: %v", err)
	}
	for _, f := range strings.Fields(string(syms)) {
		switch f {
		case "malloc", "calloc", "realloc", "free", "aligned_alloc":
			t.Errorf("the machine's object references %s (nm -u: %s)", f, syms)
		}
	}
	if gxx, err := exec.LookPath("g++"); err == nil {
		prog := filepath.Join(dir, "use.cpp")
		text := "#include \"washing_machine.h\"\nstatic washing_machine_machine m;\nint main() { return washing_machine_init(&m) == 0 && washing_machine_cycle(&m, 0, 0) == 0 ? 0 : 1; }\n"
		if err := os.WriteFile(prog, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "use")
		if msg, err := exec.Command(gxx, "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", out, "-o", bin, prog, obj, "-lm").CombinedOutput(); err != nil {
			t.Errorf("C++: %v\n%s", err, msg)
		} else if msg, err := exec.Command(bin).CombinedOutput(); err != nil {
			t.Errorf("C++ program: %v\n%s", err, msg)
		}
	}
	// The run script builds the driver with cc and prints simulate's document.
	steps := filepath.Join(dir, "steps.json")
	if err := os.WriteFile(steps, []byte(`[[], ["Washer.Ready.Start"], []]`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command(filepath.Join(out, "run"), "--steps", steps).Output()
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	want, _, _ := runCLI(t, "simulate", "../../examples/fcstm/washing_machine.fcstm", "--steps", steps, "--json")
	if string(got) != want {
		t.Errorf("run differs from simulate --json:\n%s", firstDiff(string(got), want))
	}
}

// TestGenerateCOverflow: an integer result outside 64 bits is the C
// target's error, located, and the machine keeps its state; the harness
// accepts it only because the runtime's value goes past 64 bits, and a
// document that differs anywhere else is still a failure.
func TestGenerateCOverflow(t *testing.T) {
	needCC(t)
	dir := t.TempDir()
	model := filepath.Join(dir, "big.fcstm")
	src := "def int x = 3037000499;\nstate Big {\n    state A { during { x = x * x; } }\n    [*] -> A;\n}\n"
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "big")
	if _, stderr, code := runCLI(t, "generate", model, "--target", "c", "-o", out, "--name", "big", "--driver"); code != 0 {
		t.Fatalf("generate exit %d: %s", code, stderr)
	}
	drivers := buildCDrivers(t, dir, []string{"big"})
	steps := filepath.Join(dir, "steps.json")
	if err := os.WriteFile(steps, []byte(`[[], [], []]`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd := exec.Command(drivers["big"][0], "--steps", steps)
	cmd.Stdout = &stdout
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("driver: %v, want exit 1", err)
	}
	got := stdout.String()
	want, _, _ := runCLI(t, "simulate", model, "--steps", steps, "--json")
	for _, s := range []string{`"class": "target"`, cOverflowMsg + " in x * x", `"line": 3`, `"x": 9223372030926249001`} {
		if !strings.Contains(got, s) {
			t.Errorf("driver output lacks %q:\n%s", s, got)
		}
	}
	if got == want {
		t.Fatal("the runtime overflows 64 bits here too: the model no longer tests the C target's limit")
	}
	if why := cOutside(got, want); why == "" {
		t.Errorf("the harness does not accept the overflow:\n%s", firstDiff(got, want))
	}
	// A wrong value before the overflow is never accepted.
	bad := strings.Replace(got, `"x": 3037000499`, `"x": 3037000498`, 1)
	if bad == got {
		t.Fatal("the document has no x = 3037000499 to change")
	}
	if why := cOutside(bad, want); why != "" {
		t.Errorf("the harness accepts a wrong value (%s)", why)
	}
}
