package spill

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
)

func TestParseSize(t *testing.T) {
	good := map[string]int64{"512MiB": 512 << 20, "8GiB": 8 << 30, "1.5GB": 1_500_000_000, "4096": 4096, "64 kib": 64 << 10, "2m": 2 << 20, "10B": 10}
	for in, want := range good {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "12XB", "-5MiB", "0", "1e9", "1.2.3GB", "99999999999TiB", "0.1B"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}

func TestMemTotal(t *testing.T) {
	got, ok := memTotal("MemFree:  10 kB\nMemTotal:       16318976 kB\n")
	if !ok || got != 16318976*1024 {
		t.Fatalf("memTotal = %d, %v", got, ok)
	}
	if _, ok := memTotal("nothing"); ok {
		t.Fatal("memTotal found a total in nothing")
	}
}

func hash1(k []uint64) uint64 {
	h := k[0] * 0x9E3779B97F4A7C15
	return h ^ h>>29
}

// TestRunsLookup stores random keys over many runs (merged past maxRuns)
// and checks every lookup of stored and absent keys against a map.
func TestRunsLookup(t *testing.T) {
	d, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rs := d.NewRuns(1, hash1)
	stored := map[uint64]int64{}
	rng := rand.New(rand.NewPCG(1, 2))
	for run := range 2*maxRuns + 3 {
		var keys []uint64
		for len(keys) < 700+run*37 {
			k := rng.Uint64() % 1_000_000
			if _, ok := stored[k]; !ok && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		vals := make([]int64, len(keys))
		for i := range keys {
			vals[i] = int64(len(stored) + i)
		}
		for i, k := range keys {
			stored[k] = vals[i]
		}
		if err := rs.Add(keys, vals); err != nil {
			t.Fatal(err)
		}
	}
	if len(rs.runs) > maxRuns || rs.Len() != len(stored) {
		t.Fatalf("%d runs, %d records; want at most %d runs and %d records", len(rs.runs), rs.Len(), maxRuns, len(stored))
	}
	q := make([]uint64, 0, 5000)
	for range 5000 {
		q = append(q, rng.Uint64()%1_000_000)
	}
	for k := range stored {
		if len(q) > 9000 {
			break
		}
		q = append(q, k)
	}
	slices.Sort(q)
	q = slices.Compact(q)
	hs := make([]uint64, len(q))
	vals := make([]int64, len(q))
	for i := range q {
		hs[i] = hash1(q[i : i+1])
		vals[i] = -1
	}
	if err := rs.Lookup(q, hs, vals); err != nil {
		t.Fatal(err)
	}
	for i, k := range q {
		want, ok := stored[k]
		if !ok {
			want = -1
		}
		if vals[i] != want {
			t.Fatalf("key %d: got %d, want %d", k, vals[i], want)
		}
	}
}

func TestDiskBudget(t *testing.T) {
	d, err := Open(t.TempDir(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rs := d.NewRuns(1, hash1)
	keys := make([]uint64, 100)
	vals := make([]int64, 100)
	for i := range keys {
		keys[i] = uint64(i)
	}
	if err := rs.Add(keys[:50], vals[:50]); err != nil { // 800 bytes
		t.Fatal(err)
	}
	if err := rs.Add(keys[50:], vals[50:]); !errors.Is(err, ErrDiskBudget) {
		t.Fatalf("second run: %v, want ErrDiskBudget", err)
	}
	if d.Used() != 800 || d.Peak() != 800 {
		t.Fatalf("used %d peak %d, want 800", d.Used(), d.Peak())
	}
}

func TestBlocksAndClose(t *testing.T) {
	parent := t.TempDir()
	d, err := Open(parent, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.NewBlocks("nodes", 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Write(2, []byte("abcd")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 4)
	if err := b.Read(2, got); err != nil || string(got) != "abcd" {
		t.Fatalf("read %q, %v", got, err)
	}
	if err := b.Read(1, got); err == nil {
		t.Fatal("read a block never written")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Fatalf("Close left %v", ents)
	}
}

func TestUnwritableDir(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "missing", "deeper"), 0); err == nil {
		t.Fatal("Open in a missing directory succeeded")
	}
	if os.Geteuid() == 0 {
		t.Log("running as root: a read-only directory is writable, only the missing one is tested")
		return
	}
	ro := t.TempDir()
	os.Chmod(ro, 0o500)
	defer os.Chmod(ro, 0o700)
	if _, err := Open(ro, 0); err == nil {
		t.Fatal("Open in a read-only directory succeeded")
	}
}

// New makes its directory only when a file is written.
func TestNewIsLazy(t *testing.T) {
	parent := t.TempDir()
	d := New(parent, 0)
	if ents, _ := os.ReadDir(parent); len(ents) != 0 || d.Path() != "" {
		t.Fatalf("New made %v", ents)
	}
	if _, err := d.NewBlocks("nodes", 8); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 || d.Path() == "" {
		t.Fatalf("after a file: %v", ents)
	}
	d.Close()
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Fatalf("Close left %v", ents)
	}
	if err := New(filepath.Join(parent, "missing"), 0).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := New(filepath.Join(parent, "missing"), 0).NewBlocks("nodes", 8); err == nil {
		t.Fatal("a file in a missing directory")
	}
}

// The filter never misses a stored key and admits few others (the
// search reads a disk block for each it admits).
func TestBloomFalsePositives(t *testing.T) {
	b := newBloom(100000)
	for i := range uint64(100000) {
		b.add(hash1([]uint64{i}))
	}
	fp := 0
	for i := range uint64(100000) {
		if !b.has(hash1([]uint64{i})) {
			t.Fatalf("key %d missed", i)
		}
		if b.has(hash1([]uint64{i + 1<<40})) {
			fp++
		}
	}
	if fp > 500 { // 0.5%
		t.Fatalf("%d false positives in 100000", fp)
	}
}

// addAll sets the bits add sets, whatever the batch boundaries.
func TestBloomAddAll(t *testing.T) {
	const n = 3*addBatch + 5
	one, all := newBloom(n), newBloom(n)
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = hash1([]uint64{uint64(i)})
		one.add(hs[i])
	}
	all.addAll(hs)
	if !slices.Equal(one.bits, all.bits) {
		t.Fatal("addAll set other bits than add")
	}
}

// BenchmarkBloomRebuild adds a few million keys to a filter larger than
// the cache, as a rebuild from the runs does.
func BenchmarkBloomRebuild(b *testing.B) {
	const n = 4 << 20
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = hash1([]uint64{uint64(i)})
	}
	for b.Loop() {
		newBloom(n).addAll(hs)
	}
}

func BenchmarkBloomRebuildOneByOne(b *testing.B) {
	const n = 4 << 20
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = hash1([]uint64{uint64(i)})
	}
	for b.Loop() {
		f := newBloom(n)
		for _, h := range hs {
			f.add(h)
		}
	}
}

// TestRefilterFreesTheOldFilter: a rebuild lets the old filter go before
// it allocates the new one, so the heap does not hold both (collection
// is off: what the rebuild leaves allocated is what it held at its peak).
func TestRefilterFreesTheOldFilter(t *testing.T) {
	d, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rs := d.NewRuns(1, hash1)
	rs.freeFilter = 1 << 20
	run := func(from, n int) ([]uint64, []int64) {
		keys, vals := make([]uint64, n), make([]int64, n)
		for i := range keys {
			keys[i], vals[i] = uint64(from+i), int64(from+i)
		}
		return keys, vals
	}
	if err := rs.Add(run(0, 2_000_000)); err != nil {
		t.Fatal(err)
	}
	old := rs.filter.bytes()
	keys, vals := run(2_000_000, 1_100_000) // made before measuring
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := rs.Add(keys, vals); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if nb := rs.filter.bytes(); nb <= old || grown > nb-old/2 {
		t.Fatalf("filter %d -> %d bytes; the rebuild left the heap %d bytes larger", old, nb, grown)
	}
}

// TestRunsWideKeys stores keys of three words in runs larger than a
// writer's or reader's buffer (ioBytes), merged into one, and reads them
// back in order and by lookup: records cross the buffers' edges.
func TestRunsWideKeys(t *testing.T) {
	d, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const w = 3
	hash := func(k []uint64) uint64 { return hash1(k[:1]) ^ k[1]*0x9E3779B97F4A7C15 ^ k[2] }
	rs := d.NewRuns(w, hash)
	rng := rand.New(rand.NewPCG(3, 4))
	per := ioBytes/rs.recBytes() + 777
	var all [][]uint64
	for run := range mergeFan {
		keys := make([][]uint64, per)
		for i := range keys {
			keys[i] = []uint64{rng.Uint64() % 4, rng.Uint64(), uint64(run)}
		}
		slices.SortFunc(keys, slices.Compare)
		flat, vals := make([]uint64, 0, per*w), make([]int64, per)
		for i, k := range keys {
			flat = append(flat, k...)
			vals[i] = int64(len(all) + i)
		}
		all = append(all, keys...)
		if err := rs.Add(flat, vals); err != nil {
			t.Fatal(err)
		}
	}
	if len(rs.runs) != 1 || rs.runs[0].n != len(all) {
		t.Fatalf("%d runs; want the %d records merged into one", len(rs.runs), len(all))
	}
	want := make([]int, len(all))
	for i := range want {
		want[i] = i
	}
	slices.SortFunc(want, func(a, b int) int { return slices.Compare(all[a], all[b]) })
	rd := rs.newReader(rs.runs[0])
	for i, v := range want {
		ok, err := rd.next()
		if err != nil || !ok || !slices.Equal(rd.key, all[v]) || rd.val != int64(v) {
			t.Fatalf("record %d: %v %d %v %v; want %v %d", i, rd.key, rd.val, ok, err, all[v], v)
		}
	}
	if ok, err := rd.next(); ok || err != nil {
		t.Fatalf("a record past the run's end: %v %v", ok, err)
	}
	q, hs, vals := make([]uint64, 0, len(all)*w), make([]uint64, len(all)), make([]int64, len(all))
	for i, v := range want {
		q = append(q, all[v]...)
		hs[i], vals[i] = hash(all[v]), -1
	}
	if err := rs.Lookup(q, hs, vals); err != nil {
		t.Fatal(err)
	}
	for i, v := range want {
		if vals[i] != int64(v) {
			t.Fatalf("lookup of %v: %d, want %d", all[v], vals[i], v)
		}
	}
}

// TestRunsConcat: runs whose keys do not interleave (a chain's, spilled
// level by level) are merged by joining their files and block indexes,
// whatever order they came in, so the joined run's blocks start at the
// parts' seams; every key is found, and none around the seams that was
// not stored.
func TestRunsConcat(t *testing.T) {
	d, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rs := d.NewRuns(1, hash1)
	sizes := []int{700, 1300, 5, blockRecords} // added in this order
	from := []uint64{5000, 100, 3000, 2000}    // key ranges, with gaps
	for i, n := range sizes {
		keys, vals := make([]uint64, n), make([]int64, n)
		for j := range keys {
			keys[j], vals[j] = from[i]+uint64(j), int64(from[i])+int64(j)
		}
		if err := rs.Add(keys, vals); err != nil {
			t.Fatal(err)
		}
	}
	if len(rs.runs) != 1 {
		t.Fatalf("%d runs after %d of one tier; want them merged", len(rs.runs), mergeFan)
	}
	r := rs.runs[0]
	// in key order: 1300 records from 100, 512 from 2000, 5 from 3000, 700 from 5000
	want := []int{0, 512, 1024, 1300, 1300 + 512, 1300 + 512 + 5, 1300 + 512 + 5 + 512}
	if !slices.Equal(r.start, want) {
		t.Fatalf("blocks start at %v; want %v (the parts joined, not rewritten)", r.start, want)
	}
	var q []uint64
	for k := uint64(0); k < 6000; k++ {
		q = append(q, k)
	}
	hs, vals := make([]uint64, len(q)), make([]int64, len(q))
	for i := range q {
		hs[i], vals[i] = hash1(q[i:i+1]), -1
	}
	if err := rs.Lookup(q, hs, vals); err != nil {
		t.Fatal(err)
	}
	for i, k := range q {
		want := int64(-1)
		for p, n := range sizes {
			if k >= from[p] && k < from[p]+uint64(n) {
				want = int64(k)
			}
		}
		if vals[i] != want {
			t.Fatalf("key %d: got %d, want %d", k, vals[i], want)
		}
	}
}
