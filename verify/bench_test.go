package verify_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/verify"
)

// BenchmarkFileOffline measures the offline stage (the decoder's one pass, with the
// duplicate check) on a million-key file, in keys/s, and the peak heap in use while it runs,
// which grows with the file only by the duplicate check's 5.3 bytes per key
// (go test -run '^$' -bench FileOffline ./verify).
func BenchmarkFileOffline(b *testing.B) {
	const n = 1_000_000
	path, m := generate(b, classic(n), encoder.Options{})
	peak := watchHeap(b)
	for b.Loop() {
		rep, err := verify.File(context.Background(), path, verify.Options{Offline: true, Manifest: m})
		if err != nil || !rep.Pass {
			b.Fatal(err, rep.Reason)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
	b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
}

// watchHeap samples the heap in use until the benchmark ends; the function it returns
// gives the highest value seen.
func watchHeap(b *testing.B) func() uint64 {
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			mu.Lock()
			peak = max(peak, ms.HeapInuse)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	b.Cleanup(func() { close(done); wg.Wait() })
	return func() uint64 {
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
