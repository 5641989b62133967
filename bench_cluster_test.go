package rdbgen_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/output"
)

// writeShards splits the default dataset by layout into shard files in dir/shards as the CLI
// does (temporary files, synced, renamed over those of the previous iteration, with their
// manifests) and returns the time taken.
func writeShards(b *testing.B, dir string, n uint64, layout *cluster.Layout) time.Duration {
	start := time.Now()
	out, err := output.Shards(filepath.Join(dir, "shards"), layout, output.Options{Force: true})
	if err != nil {
		b.Fatal(err)
	}
	res, err := out.Write(context.Background(), classic(n), nil)
	if err != nil {
		b.Fatal(err)
	}
	if res.CountDuration != 0 {
		b.Fatalf("a counting pass of %v: the headers of shard files are filled in last", res.CountDuration)
	}
	return time.Since(start)
}

// BenchmarkClusterSplit writes the 10,000,000-key default dataset as one file and split
// into 3 shards, side by side in each iteration, and reports the median keys/s of both and
// their ratio. Run with: make bench (or go test -run '^$' -bench 'ClusterSplit$' -benchtime
// 7x .).
func BenchmarkClusterSplit(b *testing.B) {
	const n = 10_000_000
	layout, _ := cluster.Even(3)
	dir := b.TempDir()
	var single, split []time.Duration
	for b.Loop() {
		single = append(single, writeRdbgen(b, dir, classic(n)))
		split = append(split, writeShards(b, dir, n, layout))
	}
	b.ReportMetric(n/median(single).Seconds(), "single-keys/s")
	b.ReportMetric(n/median(split).Seconds(), "3-shards-keys/s")
	b.ReportMetric(median(split).Seconds()/median(single).Seconds(), "split/single")
	b.ReportMetric(0, "ns/op")
	b.Logf("medians of %d interleaved runs: one file %.3f s, 3 shards %.3f s (%.2fx)",
		len(single), median(single).Seconds(), median(split).Seconds(), median(split).Seconds()/median(single).Seconds())
}

// BenchmarkClusterPeakRSS runs the rdbgen binary splitting the default dataset into 3 and
// into 100 shards and reports its peak resident memory, which depends on the number of
// shards, not on the keys. Run with: make bench.
func BenchmarkClusterPeakRSS(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "rdbgen")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/rdbgen").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	for _, shards := range []int{3, 100} {
		b.Run(fmt.Sprintf("shards=%d", shards), func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "dumps")
			var peak int64
			for b.Loop() {
				cmd := exec.Command(bin, "--count", "10000000", "--cluster-shards", fmt.Sprint(shards), "-o", dir, "--force", "--quiet")
				if msg, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("rdbgen: %v\n%s", err, msg)
				}
				peak = max(peak, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) // KiB on Linux
			}
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
			b.ReportMetric(0, "ns/op")
		})
	}
}
