package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/gen"
)

// stopBound is how long a stopped run may take to be gone: stopGrace is
// the most it waits for itself, with a margin for a loaded machine.
const stopBound = stopGrace + 5*time.Second

// gone reports whether pid no longer runs (exited, or a zombie waiting
// for its new parent to reap it).
func gone(pid int) bool {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(data, ')')
	return i < 0 || i+2 >= len(data) || data[i+2] == 'Z'
}

// TestLocalPartitionsStopWithParent (issue 38 item 8.8): the parent of
// --local-partitions 2 -o out.json stopped by SIGTERM passes the signal
// on and exits 130 once its workers are gone; killed by SIGKILL, its
// workers get the parent-death signal. Either way no worker outlives it
// by more than stopBound and out.json is never written.
func TestLocalPartitionsStopWithParent(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "toggles.json")
	// 2^20 states: tens of seconds over two workers, far past the bound
	if err := os.WriteFile(model, []byte(gen.Toggles(20)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(dir, sig.String()+".json")
			c, stderr, pids := startLocal(t, 2, "verify", model, "--max-states", "10000000", "-o", out)
			time.Sleep(time.Second) // into the search
			if err := c.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			stopped := time.Now()
			waited := make(chan error, 1)
			go func() { waited <- c.Wait() }()
			for _, pid := range pids {
				for !gone(pid) {
					if time.Since(stopped) > stopBound {
						syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // cleanup
						t.Fatalf("worker %d still runs %s after the parent's %v", pid, stopBound, sig)
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			select {
			case <-waited:
			case <-time.After(stopBound):
				t.Fatalf("the parent still runs %s after %v", stopBound, sig)
			}
			time.Sleep(time.Second) // a report would come now
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s written after %v: %v", out, sig, err)
			}
			stderrMu.Lock()
			text := stderr.String()
			stderrMu.Unlock()
			if strings.Contains(text, "PARTITION_UNDECIDED") || strings.Contains(text, "partitioned search:") {
				t.Errorf("a stopped run spoke of a result:\n%s", text)
			}
			if sig == syscall.SIGTERM {
				if code := c.ProcessState.ExitCode(); code != exitInterrupted || !strings.HasSuffix(text, "stopped; no report written (docs/reports.md#exit-codes)\n") {
					t.Errorf("exit %d, want %d, and stopped said last:\n%s", code, exitInterrupted, text)
				}
			}
		})
	}
}

// TestSpillStoppedBySignal (issue 38 item 8.9): SIGINT or SIGHUP during a
// spilling search with -o stops it before its files are removed: exit
// 130, no report (no SPILL_FAILED either), the spill directory gone.
func TestSpillStoppedBySignal(t *testing.T) {
	model := writeModel(t, gen.Toggles(24))
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(t.TempDir(), "report.json")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			c := exec.CommandContext(ctx, stateproofBinary(t), "verify", model, "--json", "-o", out, "--max-states", "100000000",
				"--memory", "4MiB", "--spill-dir", dir, "--workers", "1")
			var stdout, stderr bytes.Buffer
			c.Stdout, c.Stderr = &stdout, &stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			for {
				if runs, _ := filepath.Glob(filepath.Join(dir, "stateproof-spill-*", "run-*")); len(runs) > 0 {
					break
				}
				if ctx.Err() != nil {
					t.Fatal("the run never spilled")
				}
				time.Sleep(20 * time.Millisecond)
			}
			if err := c.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			stopped := time.Now()
			err := c.Wait()
			if took := time.Since(stopped); took > stopBound {
				t.Errorf("stopped after %s", took)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
				t.Errorf("exit: %v, want %d\n%s", err, exitInterrupted, stderr.String())
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a report was written: %v", err)
			}
			if text := stdout.String() + stderr.String(); strings.Contains(text, "SPILL_FAILED") || !strings.Contains(text, "stopped; no report written") {
				t.Errorf("output:\n%s", text)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("spill files left after %v: %v", sig, ents)
			}
		})
	}
}

// A halt withholds a report once stopped, and a signal after a report
// was written no longer stops the run.
func TestHaltGatesTheReport(t *testing.T) {
	dir := t.TempDir()
	_, cancel := context.WithCancelCause(context.Background())
	h := &halt{done: make(chan struct{}), cancel: cancel}
	sigs := make(chan os.Signal, 1)
	finished := make(chan struct{})
	defer close(finished)
	watched := make(chan struct{})
	go func() { h.watch(sigs, finished, false, &bytes.Buffer{}); close(watched) }()
	sigs <- syscall.SIGTERM
	<-watched
	out := outputFlags{out: filepath.Join(dir, "r.json"), halt: h}
	if err := out.write(nil, []byte("{}")); !errors.Is(err, errStopped) {
		t.Errorf("write after the signal: %v", err)
	}
	if _, err := os.Stat(out.out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("report written after the signal: %v", err)
	}

	h = &halt{done: make(chan struct{}), cancel: cancel}
	out.halt = h
	if err := out.write(nil, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	sigs <- syscall.SIGTERM
	h.watch(sigs, make(chan struct{}), false, &bytes.Buffer{})
	if h.sig != nil {
		t.Errorf("a signal after the report stopped the run")
	}
}
