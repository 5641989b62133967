package rdbgen_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// The collection benchmarks of issue 5: a million hashes of 10 fields (listpacks on Redis
// 7), and one set of ten million members (the plain type, streamed).
var collectionBenchmarks = []struct {
	name   string
	d      dataset.Spec
	target string
}{
	{"hashes=1000000x10", dataset.Spec{Count: 1_000_000, KeyPrefix: "key", KeyStart: 100000001, Type: record.Hash,
		Members: dataset.Range{Min: 10, Max: 10}}, "redis-7.0"},
	{"set=1x10000000", dataset.Spec{Count: 1, KeyPrefix: "key", KeyStart: 100000001, Type: record.Set,
		Members: dataset.Range{Min: 10_000_000, Max: 10_000_000}}, "redis-7.0"},
}

// discardWriter drops what is written, so the benchmark measures generation and encoding.
type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkCollections generates each collection dataset in memory and reports keys/s and
// members/s. Run with: go test -run XXX -bench Collections -benchmem -benchtime 3x .
func BenchmarkCollections(b *testing.B) {
	for _, bc := range collectionBenchmarks {
		b.Run(bc.name, func(b *testing.B) {
			var res rdbgen.Result
			var took time.Duration
			for b.Loop() {
				var err error
				res, err = rdbgen.Write(context.Background(), discardWriter{}, &bc.d, rdbgen.Options{Encoder: encoder.Options{Target: bc.target}})
				if err != nil {
					b.Fatal(err)
				}
				took += res.Duration
			}
			per := took.Seconds() / float64(b.N)
			b.ReportMetric(float64(res.Stats.Keys)/per, "keys/s")
			b.ReportMetric(float64(res.Stats.Members)/per, "members/s")
			b.ReportMetric(float64(res.Stats.Bytes)/(1<<20), "file-MiB")
		})
	}
}

// BenchmarkCollectionsPeakRSS runs the rdbgen binary on each collection dataset, writing a
// file, and reports its peak resident memory and members/s.
func BenchmarkCollectionsPeakRSS(b *testing.B) {
	bin := buildCLI(b)
	for _, bc := range collectionBenchmarks {
		b.Run(bc.name, func(b *testing.B) {
			took, peak := measureCLI(b, bin, "--count", fmt.Sprint(bc.d.Count), "--type", string(bc.d.Type),
				"--members", bc.d.Members.String(), "--target", bc.target)
			members := float64(bc.d.Count * bc.d.Members.Min)
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
			b.ReportMetric(members/took.Seconds(), "members/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// buildCLI builds the rdbgen binary into a temporary directory.
func buildCLI(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "rdbgen")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/rdbgen").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// measureCLI runs bin with args once per iteration, writing a file it then removes, and
// returns the median run time and the peak resident memory in KiB.
func measureCLI(b *testing.B, bin string, args ...string) (time.Duration, int64) {
	dir := b.TempDir()
	var peak int64
	var took []time.Duration
	for b.Loop() {
		out := filepath.Join(dir, "dump.rdb")
		cmd := exec.Command(bin, append(args, "-o", out, "--force", "--quiet")...)
		start := time.Now()
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("rdbgen: %v\n%s", err, msg)
		}
		took = append(took, time.Since(start))
		peak = max(peak, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) // KiB on Linux
		os.Remove(out)
	}
	return median(took), peak
}
