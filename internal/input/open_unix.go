//go:build unix

package input

import (
	"os"
	"syscall"
)

// openFlags opens without blocking: should a named pipe replace the file
// between the check and the open, the open returns instead of waiting for
// a writer (and the check after it refuses the pipe).
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
