//go:build !linux

package main

import "time"

// processStart is when main started: elsewhere the process start is not
// read.
func processStart(now time.Time) time.Time { return now }
