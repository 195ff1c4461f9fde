package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progressAfter is how long work runs before a progress line appears: a
// quick run stays silent.
const progressAfter = time.Second

// withProgress runs work and, when stderr is a terminal and the work takes
// longer than progressAfter, keeps one line on stderr saying what is
// running and for how long, cleared when the work ends. Reports go to
// stdout and are never mixed with it; redirected or captured stderr sees
// nothing.
func withProgress(stderr io.Writer, label string, work func() error) error {
	f, ok := stderr.(*os.File)
	if !ok {
		return work()
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return work()
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		select {
		case <-done:
			return
		case <-time.After(progressAfter):
		}
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			fmt.Fprintf(f, "\r%s… %.1f s", label, time.Since(start).Seconds())
			select {
			case <-done:
				fmt.Fprint(f, "\r\x1b[K")
				return
			case <-tick.C:
			}
		}
	}()
	err := work()
	close(done)
	<-finished
	return err
}
