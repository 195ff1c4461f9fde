package spill

import "golang.org/x/sys/unix"

// physicalMemory asks sysctl for hw.memsize.
func physicalMemory() (int64, bool) {
	m, err := unix.SysctlUint64("hw.memsize")
	return int64(m), err == nil
}
