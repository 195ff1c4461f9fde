package cluster

import (
	"math/rand/v2"
	goruntime "runtime"
	"slices"
	"testing"
)

// keyLists deals n distinct random keys among workers and returns each
// worker's sorted list as settle encodes it, and all keys in order with
// their worker.
func keyLists(r *rand.Rand, n, workers int) ([][]byte, []key, []int) {
	seen := map[key]bool{}
	var all []key
	for len(all) < n {
		k := key{r.Int64N(int64(n)), r.Int32N(30)}
		if !seen[k] {
			seen[k] = true
			all = append(all, k)
		}
	}
	slices.SortFunc(all, key.cmp)
	owner := make([]int, n)
	per := make([][]key, workers)
	for j, k := range all {
		owner[j] = r.IntN(workers)
		per[owner[j]] = append(per[owner[j]], k)
	}
	lists := make([][]byte, workers)
	for i, ks := range per {
		var e enc
		e.u(uint64(len(ks)))
		prev := int64(0)
		for _, k := range ks {
			e.u(uint64(k.parent - prev))
			e.u(uint64(k.rank))
			prev = k.parent
		}
		lists[i] = e.b
	}
	return lists, all, owner
}

// TestNumberMergesInKeyOrder: every worker's states get the global
// indexes of their keys' places in the merged order, from total on, and
// a cap keeps the first cap+1-total.
func TestNumberMergesInKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	lists, all, owner := keyLists(r, 5000, 3)
	for _, cap := range []int{1 << 30, 2100} {
		const total = 100
		nb, err := number(lists, total, cap)
		if err != nil {
			t.Fatal(err)
		}
		want := min(len(all), cap+1-total)
		if nb.kept != want || nb.last != all[want-1] {
			t.Fatalf("cap %d: %d kept, last %v; want %d, %v", cap, nb.kept, nb.last, want, all[want-1])
		}
		got := make([][]int64, len(lists))
		for i := range lists {
			d := &dec{b: nb.idx[i].b}
			prev := int64(0)
			for range nb.counts[i] {
				prev += int64(d.u())
				got[i] = append(got[i], prev)
			}
		}
		next := make([]int, len(lists))
		for j := range want {
			i := owner[j]
			if g := got[i][next[i]]; g != int64(total+j) {
				t.Fatalf("cap %d: worker %d's state %d numbered %d, want %d", cap, i, next[i], g, total+j)
			}
			next[i]++
		}
	}
	bad := slices.Clone(lists)
	var e enc
	e.u(2)
	e.u(5)
	e.u(1)
	e.u(0) // (5, 0) after (5, 1)
	e.u(0)
	bad[0] = e.b
	if _, err := number(bad, 0, 1<<30); err == nil {
		t.Error("keys out of order numbered")
	}
}

// TestNumberHoldsNoKeys (issue 42 item 2): worker 0 numbers a level from
// the workers' lists without a copy of every key and its owner (24 bytes
// a state held, 146 allocated as that copy grew and was sorted, measured
// on this test before); what it allocates is the indexes it sends.
func TestNumberHoldsNoKeys(t *testing.T) {
	const n = 200_000
	lists, _, _ := keyLists(rand.New(rand.NewPCG(5, 6)), n, 2)
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	nb, err := number(lists, 1, 1<<30)
	goruntime.ReadMemStats(&after)
	if err != nil || nb.kept != n {
		t.Fatal(nb, err)
	}
	per := float64(after.TotalAlloc-before.TotalAlloc) / n
	t.Logf("%.1f bytes allocated a state", per)
	if per > 8 {
		t.Errorf("numbering a level allocated %.1f bytes a state", per)
	}
}
