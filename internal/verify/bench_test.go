package verify

import (
	goruntime "runtime"
	"sync"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// benchModel verifies a generated model; it reports the peak heap in use
// per runtime state (sampled every few milliseconds during the run) as
// B/state. workers 0 means one per core.
func benchModel(b *testing.B, src string, maxStates, workers int) {
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		b.Fatalf("generated model invalid: %v %v", err, res.Errors)
	}
	opts := DefaultOptions()
	opts.MaxStates = maxStates
	opts.Workers = workers
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		stop := sampleHeap(&peak)
		r := Run(res, opts)
		stop()
		if r.Truncated {
			b.Fatal("benchmark model truncated")
		}
	}
	states := newEnv(res.Model, opts).explored().Len()
	b.ReportMetric(float64(peak)/float64(states), "B/state")
}

// sampleHeap records the largest HeapInuse seen until the returned stop is
// called.
func sampleHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms goruntime.MemStats
		for {
			goruntime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// BenchmarkVerifyToggles20: 2^20 switch settings, 1,048,576 runtime
// states reached through 40 events each, all S-checks.
func BenchmarkVerifyToggles20(b *testing.B) { benchModel(b, gen.Toggles(20), 1_100_000, 1) }

// BenchmarkVerifyToggles20Workers2 is the same on two workers.
func BenchmarkVerifyToggles20Workers2(b *testing.B) { benchModel(b, gen.Toggles(20), 1_100_000, 2) }

// BenchmarkVerifyCounter1M: a counter to one million, 1,000,002 runtime
// states, with a var-in-range and an event-before-state invariant.
func BenchmarkVerifyCounter1M(b *testing.B) { benchModel(b, gen.Counter(1_000_000), 2_000_000, 1) }

// BenchmarkVerifyCounter10M is the counter to 10^7, the size at which
// the memory target (bytes per stored state) is set.
func BenchmarkVerifyCounter10M(b *testing.B) { benchModel(b, gen.Counter(10_000_000), 20_000_000, 1) }

// BenchmarkVerifyCounter10MWorkers2 is the same on two workers.
func BenchmarkVerifyCounter10MWorkers2(b *testing.B) {
	benchModel(b, gen.Counter(10_000_000), 20_000_000, 2)
}

// BenchmarkReachCounter10M is the plain exploration alone of the same
// model, the yardstick of BenchmarkVerifyCounter10M.
func BenchmarkReachCounter10M(b *testing.B) { benchReach(b, gen.Counter(10_000_000), 20_000_000, 1) }

// BenchmarkReachCounter10MWorkers2 is the same on two workers.
func BenchmarkReachCounter10MWorkers2(b *testing.B) {
	benchReach(b, gen.Counter(10_000_000), 20_000_000, 2)
}

// benchReach runs the plain exploration of a generated model alone.
func benchReach(b *testing.B, src string, maxStates, workers int) {
	res, _ := jsonmodel.Decode([]byte(src))
	opts := DefaultOptions()
	opts.MaxStates, opts.Workers = maxStates, workers
	var peak uint64
	var states int
	for b.Loop() {
		stop := sampleHeap(&peak)
		states = newEnv(res.Model, opts).explored().Len()
		stop()
	}
	b.ReportMetric(float64(peak)/float64(states), "B/state")
}

// BenchmarkProbes100k: the probes model with k = 316, 100,492 runtime
// states; every check S1-S8 and A1-A14 runs and decides.
func BenchmarkProbes100k(b *testing.B) { benchModel(b, gen.Probes(316), 200_000, 1) }

// BenchmarkProbes1M: the probes model with k = 1000, 1,002,004 runtime
// states.
func BenchmarkProbes1M(b *testing.B) { benchModel(b, gen.Probes(1000), 2_000_000, 1) }
