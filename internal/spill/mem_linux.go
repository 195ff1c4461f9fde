package spill

import (
	"os"
	"strconv"
	"strings"
)

// physicalMemory reads MemTotal from /proc/meminfo.
func physicalMemory() (int64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	return memTotal(string(data))
}

// memTotal parses the MemTotal line of /proc/meminfo (in kB).
func memTotal(meminfo string) (int64, bool) {
	for line := range strings.SplitSeq(meminfo, "\n") {
		rest, ok := strings.CutPrefix(line, "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		return kb * 1024, err == nil
	}
	return 0, false
}
