//go:build !linux

package main

import (
	"syscall"
	"time"
)

// processStart is when main started: elsewhere the process start is not
// read.
func processStart(now time.Time) time.Time { return now }

// childAttr is nil: elsewhere the kernel has no parent-death signal, and
// workers of a parent that dies by SIGKILL end at their peer timeout.
func childAttr() *syscall.SysProcAttr { return nil }
