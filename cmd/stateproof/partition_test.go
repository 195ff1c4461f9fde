package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/gen"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// stateproofBinary builds the command once per test run: partitioned
// searches are tested as real processes over real gRPC on loopback.
func stateproofBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "stateproof-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "stateproof")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// runBin runs the binary with a bound on its time.
func runBin(t *testing.T, limit time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var out, errb bytes.Buffer
	c := exec.CommandContext(ctx, stateproofBinary(t), args...)
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v: still running after %s\n%s", args, limit, errb.String())
	}
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestLocalPartitionsSameReport: the report of a partitioned search over
// 2, 3 and 4 local worker processes is the one-process report on every
// example (broken ones too) and a few generated families, with a cap that
// truncates some: byte for byte, with the same exit status, except that
// the checks that need the whole graph are undecided "graph partitioned"
// (samePartitioned); with --gather (worker 0 holds the graph) byte for
// byte everywhere.
func TestLocalPartitionsSameReport(t *testing.T) {
	dir := t.TempDir()
	var models []string
	for _, pat := range []string{"../../examples/*.json", "../../examples/broken/*.json"} {
		m, _ := filepath.Glob(pat)
		models = append(models, m...)
	}
	for name, src := range map[string]string{"toggles7.json": gen.Toggles(7), "counter400.json": gen.Counter(400), "ring2.json": gen.Ring(2), "probes3.json": gen.Probes(3)} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		models = append(models, p)
	}
	for _, model := range models {
		// small cap: a level costs round trips and deep models have one
		// per state; 300 still truncates the larger ones
		base := []string{"verify", model, "--json", "--max-states", "300"}
		want, _, wantCode := runBin(t, time.Minute, base...)
		for _, n := range []int{2, 3, 4} {
			got, errs, code := runBin(t, time.Minute, append(base, "--local-partitions", strconv.Itoa(n))...)
			if err := samePartitioned(want, got, wantCode, code); err != nil {
				t.Errorf("%s, %d local partitions: %v\n%s", model, n, err, errs)
			}
		}
		got, errs, code := runBin(t, time.Minute, append(base, "--local-partitions", "2", "--gather")...)
		if got != want || code != wantCode {
			t.Errorf("%s, 2 local partitions, --gather: exit %d (want %d), report differs: %v\n%s", model, code, wantCode, got != want, errs)
		}
	}
}

// samePartitioned says how a partitioned report differs from the
// one-process one beyond what the partition allows: when no check is
// undecided "graph partitioned", none (byte for byte, same exit);
// otherwise each finding is the one-process one or such an undecided
// one, a one-process finding is missing only from a check that has one,
// and the exit is never a pass.
func samePartitioned(want, got string, wantCode, code int) error {
	if !strings.Contains(got, `"capKind": "partitioned"`) {
		if got != want || code != wantCode {
			return fmt.Errorf("exit %d (want %d), report differs: %v", code, wantCode, got != want)
		}
		return nil
	}
	if code != exitUndecided && (code != wantCode || code == exitHolds) {
		return fmt.Errorf("exit %d with a check undecided (one process: %d)", code, wantCode)
	}
	type check struct {
		ID       string            `json:"id"`
		Findings []json.RawMessage `json:"findings"`
	}
	var w, g struct{ Checks []check }
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		return err
	}
	if len(w.Checks) != len(g.Checks) {
		return fmt.Errorf("%d checks, want %d", len(g.Checks), len(w.Checks))
	}
	for i, c := range g.Checks {
		wanted, have, open := map[string]bool{}, map[string]bool{}, false
		for _, f := range w.Checks[i].Findings {
			wanted[string(f)] = true
		}
		for _, f := range c.Findings {
			have[string(f)] = true
			switch {
			case strings.Contains(string(f), `"capKind": "partitioned"`) && strings.Contains(string(f), "graph partitioned"):
				open = true
			case !wanted[string(f)]:
				return fmt.Errorf("%s: a finding not in the one-process report: %s", c.ID, f)
			}
		}
		for _, f := range w.Checks[i].Findings {
			if !have[string(f)] && !open {
				return fmt.Errorf("%s: a finding dropped with nothing undecided in its place: %s", c.ID, f)
			}
		}
	}
	return nil
}

var pidLine = regexp.MustCompile(`local partition (\d+): pid (\d+) at`)

// startLocal starts a --local-partitions run and returns it with the
// workers' pids as the parent announces them.
func startLocal(t *testing.T, n int, args ...string) (*exec.Cmd, *bytes.Buffer, []int) {
	t.Helper()
	c := exec.Command(stateproofBinary(t), append(args, "--local-partitions", strconv.Itoa(n))...)
	c.Stdout = new(bytes.Buffer)
	pipe, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() }) //nolint:errcheck // cleanup
	rd := bufio.NewReader(pipe)
	pids := make([]int, n)
	var stderr bytes.Buffer
	for seen := 0; seen < n; {
		line, err := rd.ReadString('\n')
		stderr.WriteString(line)
		if err != nil {
			t.Fatalf("the parent ended before announcing its workers:\n%s", stderr.String())
		}
		if m := pidLine.FindStringSubmatch(line); m != nil {
			i, _ := strconv.Atoi(m[1])
			pids[i], _ = strconv.Atoi(m[2])
			seen++
		}
	}
	go func() {
		for {
			line, err := rd.ReadString('\n')
			stderrMu.Lock()
			stderr.WriteString(line)
			stderrMu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return c, &stderr, pids
}

var stderrMu sync.Mutex

// bigModel is a model whose partitioned search runs for seconds (toggles
// 18 ended within the tests' 1.5 s once worker 0 stopped gathering the
// graph of a model whose checks read one state at a time).
func bigModel(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "toggles.json")
	if err := os.WriteFile(p, []byte(gen.Toggles(21)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLocalPartitionDies: a worker killed mid-run, or stopped (it never
// answers again), or worker 0 killed, ends the run undecided (exit 3) on
// every surviving worker, and the parent exits 3. On an idle machine that
// takes the peer timeout (3 s) and the one second a child is waited for
// past it; the test allows three times that (it failed in CI at 10.03 s
// against a 10 s limit, issue 38 item 7).
func TestLocalPartitionDies(t *testing.T) {
	const deathLimit = 3 * (3*time.Second + time.Second)
	for _, tc := range []struct {
		victim    int
		sig       syscall.Signal
		survivors []string
	}{
		{1, syscall.SIGKILL, []string{"worker 0 of 3: undecided", "worker 2 of 3: undecided"}},
		{1, syscall.SIGSTOP, []string{"worker 0 of 3: undecided", "worker 2 of 3: undecided"}},
		{0, syscall.SIGKILL, []string{"worker 1 of 3: undecided", "worker 2 of 3: undecided", "local partition 0 was killed"}},
	} {
		sig := tc.sig
		t.Run(fmt.Sprintf("%d-%s", tc.victim, sig), func(t *testing.T) {
			c, stderr, pids := startLocal(t, 3, "verify", bigModel(t), "--max-states", "3000000", "--peer-timeout", "3s")
			time.Sleep(1500 * time.Millisecond) // into the search
			if err := syscall.Kill(pids[tc.victim], sig); err != nil {
				t.Fatal(err)
			}
			if sig == syscall.SIGSTOP {
				defer syscall.Kill(pids[tc.victim], syscall.SIGKILL) //nolint:errcheck // cleanup
			}
			killed := time.Now()
			waited := make(chan error, 1)
			go func() { waited <- c.Wait() }()
			select {
			case <-waited:
			case <-time.After(2 * deathLimit):
				t.Fatalf("the run did not end within %s of the worker's death", 2*deathLimit)
			}
			took := time.Since(killed)
			stderrMu.Lock()
			text := stderr.String()
			stderrMu.Unlock()
			if code := c.ProcessState.ExitCode(); code != exitUndecided {
				t.Errorf("exit %d, want 3\n%s", code, text)
			}
			for _, w := range tc.survivors {
				if !strings.Contains(text, w) {
					t.Errorf("no %q in:\n%s", w, text)
				}
			}
			if took > deathLimit {
				t.Errorf("the survivors took %s to end (idle: about %s)", took, deathLimit/3)
			}
			if strings.Contains(text, "partitioned search:") {
				t.Errorf("a report was made:\n%s", text)
			}
		})
	}
}

// TestPartitionWrongToken: two workers started by hand with different
// tokens: the call is refused, both end undecided, neither reports.
func TestPartitionWrongToken(t *testing.T) {
	dir := t.TempDir()
	var peers []string
	for range 2 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		peers = append(peers, l.Addr().String())
		l.Close()
	}
	for i, tok := range []string{"the-right-token-0123", "a-wrong-token-456789"} {
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)), []byte(tok), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	outs, errs, codes := make([]string, 2), make([]string, 2), make([]int, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i], codes[i] = runBin(t, 30*time.Second, "verify", "../../examples/order.json", "--partition", fmt.Sprintf("%d/2", i),
				"--peers", strings.Join(peers, ","), "--token-file", filepath.Join(dir, strconv.Itoa(i)), "--peer-timeout", "2s", "--start-timeout", "5s")
		}()
	}
	wg.Wait()
	if codes[0] != exitUndecided || !strings.Contains(errs[0], "token") || outs[0] != "" {
		t.Errorf("worker 0: exit %d\n%s%s", codes[0], outs[0], errs[0])
	}
	if codes[1] != exitUndecided || outs[1] != "" {
		t.Errorf("worker 1: exit %d\n%s%s", codes[1], outs[1], errs[1])
	}
}
