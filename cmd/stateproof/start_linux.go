package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// clockTick is the unit of the kernel's process start time (USER_HZ,
// 100 per second in Linux's user ABI).
const clockTick = 10 * time.Millisecond

// processStart is when the process was started, as the kernel recorded it
// (field 22 of /proc/self/stat: clock ticks since boot), so that a budget
// also covers what runs before main (loading, package initialisation).
// The tick rounds down, so the estimate is at most one tick early; it is
// now when the kernel does not say.
func processStart(now time.Time) time.Time {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return now
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields counted from after its last ')' start at field 3.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return now
	}
	fields := bytes.Fields(data[i+1:])
	if len(fields) < 20 {
		return now
	}
	ticks, err := strconv.ParseInt(string(fields[19]), 10, 64)
	if err != nil {
		return now
	}
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return now
	}
	age := time.Duration(ts.Nano()) - time.Duration(ticks)*clockTick
	if age < 0 || age > time.Hour {
		return now // not this process's start as expected: do not guess
	}
	return now.Add(-age)
}

// childAttr makes a --local-partitions worker get SIGTERM when the parent
// dies (even by SIGKILL), so that no worker outlives it: the worker then
// stops as on any SIGTERM, without a report.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
