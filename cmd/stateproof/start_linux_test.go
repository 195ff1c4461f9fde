package main

import (
	"testing"
	"time"
)

// The kernel's record of the process start is read: it lies before now
// (the test binary has run for a while), by less than the test's own
// time-out.
func TestProcessStartIsTheKernels(t *testing.T) {
	time.Sleep(2 * clockTick) // the process is at least two ticks old
	now := time.Now()
	start := processStart(now)
	if age := now.Sub(start); age < clockTick || age > time.Hour {
		t.Errorf("process age %v: the kernel's start time was not read", age)
	}
}
