//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A named pipe given as a model, steps or query file is refused with exit
// 2 and never blocks (before, opening it waited for a writer forever).
func TestFIFOInputsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := func(name string) string {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		return p
	}
	jsonFIFO, fcstmFIFO, stepsFIFO, queryFIFO := fifo("m.json"), fifo("m.fcstm"), fifo("steps.json"), fifo("q.fbmcq")
	for _, args := range [][]string{
		{"verify", jsonFIFO},
		{"verify", fcstmFIFO},
		{"draw", jsonFIFO},
		{"draw", fcstmFIFO},
		{"show", jsonFIFO},
		{"simulate", fcstmFIFO},
		{"simulate", fcstmFIFO, "--json"},
		{"simulate", doorModel, "--steps", stepsFIFO},
		{"bmc", "../../examples/order.json", "--query", queryFIFO},
	} {
		type result struct {
			out, errs string
			code      int
		}
		done := make(chan result, 1)
		go func() { o, e, c := runCLI(t, args...); done <- result{o, e, c} }()
		select {
		case r := <-done:
			if r.code != 2 || !strings.Contains(r.out+r.errs, "is a named pipe (FIFO)") {
				t.Errorf("%s: exit %d:\n%s%s", strings.Join(args, " "), r.code, r.out, r.errs)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s blocked on a FIFO", strings.Join(args, " "))
		}
	}
}
