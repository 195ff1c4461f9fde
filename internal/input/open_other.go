//go:build !unix

package input

import "os"

// openFlags: outside Unix there are no named pipes in the file system.
const openFlags = os.O_RDONLY
