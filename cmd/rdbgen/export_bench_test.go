//go:build unix

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/hdt3213/rdb/helper"

	"github.com/rdbgen/rdbgen/internal/cliflags"
)

// BenchmarkExportJSONL runs `rdbgen export dump.rdb -o out.jsonl --format jsonl` on the
// 10M-key default dump (`rdbgen --count 10000000`; -short: 1M) and hdt3213's JSON converter
// (helper.ToJsons, what `rdb -c json` runs: a parser goroutine, NumCPU-1 goroutines
// marshalling with sonic, a writer) on the same file, side by side in each iteration (which
// one goes first alternates), each writing a file in the same directory. It reports the
// medians: rdbgen's keys/s and MB/s of JSON, hdt3213's MB/s, and the ratio of the times
// (x-faster); and logs the table. Run with: make bench.
func BenchmarkExportJSONL(b *testing.B) {
	n := 10_000_000
	if testing.Short() {
		n = 1_000_000
	}
	dir := b.TempDir()
	dump := filepath.Join(dir, "dump.rdb")
	app := newApp(io.Discard, io.Discard)
	if err := cliflags.Run(context.Background(), app, []string{"rdbgen", "--count", fmt.Sprint(n), "-o", dump, "--quiet"}); err != nil {
		b.Fatal(err)
	}
	ours, theirs := filepath.Join(dir, "rdbgen.jsonl"), filepath.Join(dir, "hdt3213.json")
	var oursT, theirsT, oursCPU, theirsCPU []time.Duration
	var oursBytes, theirsBytes int64
	runOurs := func() {
		start, cpu := time.Now(), cpuTime(b)
		err := cliflags.Run(context.Background(), newApp(io.Discard, io.Discard),
			[]string{"rdbgen", "export", dump, "-o", ours, "--format", "jsonl", "--quiet", "--force"})
		if err != nil {
			b.Fatal(err)
		}
		oursT, oursCPU = append(oursT, time.Since(start)), append(oursCPU, cpuTime(b)-cpu)
		oursBytes = fileSize(b, ours)
	}
	runTheirs := func() {
		start, cpu := time.Now(), cpuTime(b)
		if err := helper.ToJsons(dump, theirs); err != nil {
			b.Fatal(err)
		}
		theirsT, theirsCPU = append(theirsT, time.Since(start)), append(theirsCPU, cpuTime(b)-cpu)
		theirsBytes = fileSize(b, theirs)
	}
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			runOurs()
			runTheirs()
		} else {
			runTheirs()
			runOurs()
		}
		os.Remove(ours)
		os.Remove(theirs)
		i++
	}
	o, t := medianDuration(oursT), medianDuration(theirsT)
	oc, tc := medianDuration(oursCPU), medianDuration(theirsCPU)
	b.ReportMetric(float64(n)/o.Seconds(), "keys/s")
	b.ReportMetric(float64(oursBytes)/1e6/o.Seconds(), "MB/s")
	b.ReportMetric(float64(theirsBytes)/1e6/t.Seconds(), "hdt3213-MB/s")
	b.ReportMetric(t.Seconds()/o.Seconds(), "x-faster")
	b.ReportMetric(float64(oursBytes)/1e6/oc.Seconds(), "MB/cpu-s")
	b.ReportMetric(tc.Seconds()/oc.Seconds(), "x-less-cpu")
	b.Logf("%d keys, medians of %d interleaved runs (CPU: user+system of the process during the run):\n"+
		"| | seconds | CPU seconds | MB of JSON | MB/s | keys/s |\n"+
		"| rdbgen export --format jsonl | %.2f | %.2f | %.0f | %.0f | %.0f |\n"+
		"| hdt3213 rdb -c json | %.2f | %.2f | %.0f | %.0f | %.0f |",
		n, len(oursT), o.Seconds(), oc.Seconds(), float64(oursBytes)/1e6, float64(oursBytes)/1e6/o.Seconds(), float64(n)/o.Seconds(),
		t.Seconds(), tc.Seconds(), float64(theirsBytes)/1e6, float64(theirsBytes)/1e6/t.Seconds(), float64(n)/t.Seconds())
}

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func fileSize(b *testing.B, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}

func medianDuration(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
