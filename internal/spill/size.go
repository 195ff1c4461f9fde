package spill

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseSize reads a byte size: a number (decimals allowed) with an
// optional unit, B, KB/MB/GB/TB (powers of 1000) or KiB/MiB/GiB/TiB
// (powers of 1024), case-insensitive: "512MiB", "8GiB", "1.5GB", "4096".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	mult, ok := units[strings.ToLower(unit)]
	if !ok {
		return 0, fmt.Errorf("size %q: unknown unit %q (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)", s, unit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" || strings.ContainsAny(num, "eE") {
		return 0, fmt.Errorf("size %q: want a number with an optional unit, such as 512MiB or 1.5GB", s)
	}
	b := v * float64(mult)
	if b < 1 || b >= math.MaxInt64/2 || math.IsNaN(b) {
		return 0, fmt.Errorf("size %q: must be at least 1 byte and below 4 EiB", s)
	}
	return int64(b), nil
}

var units = map[string]int64{
	"": 1, "b": 1,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
}

// FormatSize renders bytes for a human: 1.5 GiB, 512 MiB, 300 B.
func FormatSize(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit && exp < 3; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGT"[exp])
}

// DefaultMemory is the memory budget when none is given: half the
// machine's physical memory, or 4 GiB when that cannot be read.
func DefaultMemory() int64 {
	if m, ok := physicalMemory(); ok && m > 0 {
		return m / 2
	}
	return 4 << 30
}
