package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// child is one --local-partitions worker process.
type child struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	addr  string
	state atomic.Pointer[os.ProcessState] // set once the child is waited for
}

// runLocal starts n children of this binary, each a worker of a
// partitioned search on 127.0.0.1: a child listens on a port the system
// picks and reports it on its first stdout line; the parent then sends
// every child the peer list and a fresh token on its stdin. Worker 0's
// report (the rest of its stdout) is the parent's; so is its exit status.
func (p *partitionFlags) runLocal(cmd *cobra.Command, stdout, stderr io.Writer, model string) error {
	n := p.local
	if n < 1 || n > 256 {
		return fmt.Errorf("--local-partitions takes 1 to 256 (got %d)", n)
	}
	secret := make([]byte, 24)
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	kids := make([]*child, n)
	defer func() {
		for _, k := range kids {
			if k != nil && k.state.Load() == nil && k.cmd.Process != nil {
				k.cmd.Process.Kill() //nolint:errcheck // already gone is fine
			}
		}
	}()
	if err := startChildren(cmd, stderr, model, kids); err != nil {
		return err
	}
	var peers []string
	for _, k := range kids {
		peers = append(peers, k.addr)
	}
	for _, k := range kids {
		fmt.Fprintf(k.in, "PEERS %s TOKEN %s\n", strings.Join(peers, ","), hex.EncodeToString(secret))
		k.in.Close()
	}
	err := p.waitChildren(stdout, stderr, kids)
	if cmd.Context().Err() != nil {
		return &exitError{exitInterrupted} // stopped, not undecided
	}
	return err
}

// startChildren starts the workers and reads each one's address.
func startChildren(cmd *cobra.Command, stderr io.Writer, model string, kids []*child) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	args := childArgs(cmd, model)
	for i := range kids {
		c := exec.CommandContext(cmd.Context(), exe, append(args, "--partition", fmt.Sprintf("%d/%d", i, len(kids)), "--local-child")...)
		c.Stderr = stderr
		// A stopped run passes its signal on and waits for the workers
		// (each removes its spill files and writes no report); the
		// kernel stops them when the parent dies without doing so.
		c.Cancel = func() error { return c.Process.Signal(signalOf(cmd.Context())) }
		c.WaitDelay = stopGrace / 2
		c.SysProcAttr = childAttr()
		in, err := c.StdinPipe()
		if err != nil {
			return err
		}
		outPipe, err := c.StdoutPipe()
		if err != nil {
			return err
		}
		if err := c.Start(); err != nil {
			return fmt.Errorf("local partition %d: %v", i, err)
		}
		k := &child{cmd: c, in: in, out: bufio.NewReader(outPipe)}
		kids[i] = k
		line, err := k.out.ReadString('\n')
		addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ADDR ")
		if err != nil || !ok {
			return fmt.Errorf("local partition %d did not report its address", i)
		}
		k.addr = addr
		fmt.Fprintf(stderr, "stateproof: local partition %d: pid %d at %s\n", i, c.Process.Pid, addr)
	}
	return nil
}

// waitChildren copies worker 0's report and waits for every child; a
// child that outlives worker 0 by more than the peer timeout is stopped.
func (p *partitionFlags) waitChildren(stdout, stderr io.Writer, kids []*child) error {
	var wg sync.WaitGroup
	for i, k := range kids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 0 {
				io.Copy(stdout, k.out) //nolint:errcheck // the exit status tells
			} else {
				io.Copy(io.Discard, k.out) //nolint:errcheck // nothing expected
			}
			k.cmd.Wait() //nolint:errcheck // read from ProcessState
			k.state.Store(k.cmd.ProcessState)
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	for {
		select {
		case <-done:
			return localExit(stderr, kids[0].state.Load())
		case <-time.After(100 * time.Millisecond):
		}
		s := kids[0].state.Load()
		if s == nil {
			continue
		}
		select {
		case <-done:
		// A survivor ends on its own within the peer timeout of its last
		// word from worker 0 (which has just exited); one that is hung
		// (stopped, wedged) never will, and is not waited for longer.
		case <-time.After(p.peerTimeout + time.Second):
			for i, k := range kids {
				if k.state.Load() == nil {
					fmt.Fprintf(stderr, "stateproof: local partition %d outlived worker 0: stopped\n", i)
					k.cmd.Process.Kill() //nolint:errcheck // already gone is fine
				}
			}
			<-done
		}
		return localExit(stderr, s)
	}
}

// localExit is the parent's exit status from worker 0's: the same, or
// undecided when worker 0 did not exit on its own.
func localExit(stderr io.Writer, s *os.ProcessState) error {
	if ws, ok := s.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		fmt.Fprintf(stderr, "stateproof: local partition 0 was killed (%v): undecided (PARTITION_UNDECIDED)\n", ws.Signal())
		return &exitError{exitUndecided}
	}
	return exitWith(s.ExitCode())
}

// childArgs repeats the verify flags the user set for each child, except
// those of the parent's own role.
func childArgs(cmd *cobra.Command, model string) []string {
	args := []string{"verify", model}
	skip := map[string]bool{"local-partitions": true, "partition": true, "local-child": true}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if !skip[f.Name] {
			args = append(args, "--"+f.Name+"="+f.Value.String())
		}
	})
	return args
}
