package dataset_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	hdtencoder "github.com/hdt3213/rdb/encoder"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// classic is the default dataset: key100000001… with values equal to the keys.
func classic(n uint64) *dataset.Config {
	return &dataset.Config{Count: n, KeyPrefix: "key", KeyStart: 100000001, Value: dataset.ValueSame}
}

// writeRdbgen writes d to the file rdbgen.rdb in dir as the CLI does (a temporary file,
// synced, renamed over the file of the previous iteration, and its manifest) and returns the
// time taken.
func writeRdbgen(b *testing.B, dir string, d *dataset.Config) time.Duration {
	start := time.Now()
	out, err := output.File(filepath.Join(dir, "rdbgen.rdb"), output.Options{Force: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := out.Write(context.Background(), d, nil); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// encodeRdbgen writes d to w with rdbgen.
func encodeRdbgen(b *testing.B, w io.Writer, d *dataset.Config) {
	if _, err := output.Write(context.Background(), w, d, output.Options{}); err != nil {
		b.Fatal(err)
	}
}

// writeBaseline writes d to a new file in dir with github.com/hdt3213/rdb's encoder and
// returns the time taken, including the final fsync.
func writeBaseline(b *testing.B, dir string, d *dataset.Config) time.Duration {
	f, err := os.Create(filepath.Join(dir, "hdt3213.rdb"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	encodeBaseline(b, f, d)
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// encodeBaseline writes d to w with github.com/hdt3213/rdb's encoder behind a 1 MiB
// bufio.Writer.
func encodeBaseline(b *testing.B, w io.Writer, d *dataset.Config) {
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := hdtencoder.NewEncoder(bw).EnableCompress()
	check := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	check(enc.WriteHeader())
	check(enc.WriteAux("redis-ver", "5.0.0"))
	check(enc.WriteDBHeader(0, d.Count, 0))
	c := d.Cursor()
	for c.Next() {
		check(enc.WriteStringObject(string(c.Key()), c.Value()))
	}
	check(enc.WriteEnd())
	check(bw.Flush())
}

// toPipe runs encode into the write end of a new pipe, read to the end 1 MiB at a time, as
// "rdbgen -o - | …" writes, and returns the time until the reader has it all.
func toPipe(b *testing.B, encode func(io.Writer)) time.Duration {
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		// 1 MiB reads, as `dd bs=1M` makes (io.Discard alone would read 8 KiB at a time).
		_, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, r, make([]byte, 1<<20))
		r.Close()
		done <- err
	}()
	start := time.Now()
	encode(w)
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// readDD copies the file at path into a pipe with dd, 1 MiB at a time, from the page cache
// (read to the end as toPipe reads): what moving those bytes through a pipe costs. It returns
// 0 when dd is not installed.
func readDD(b *testing.B, path string) time.Duration {
	dd, err := exec.LookPath("dd")
	if err != nil {
		return 0
	}
	return toPipe(b, func(w io.Writer) {
		var stderr bytes.Buffer
		cmd := exec.Command(dd, "if="+path, "bs=1M", "status=none")
		cmd.Stdout, cmd.Stderr = w, &stderr
		if err := cmd.Run(); err != nil {
			b.Fatalf("dd: %v\n%s", err, stderr.Bytes())
		}
	})
}

// writeDD writes size zero bytes to a new file in dir with dd, 1 MiB at a time, and fsyncs it:
// the disk's speed for a file of that size. It returns 0 when dd is not installed.
func writeDD(b *testing.B, dir string, size int64) time.Duration {
	dd, err := exec.LookPath("dd")
	if err != nil {
		return 0
	}
	const mib = 1 << 20
	cmd := exec.Command(dd, "if=/dev/zero", "of="+filepath.Join(dir, "dd.out"), "bs=1M",
		fmt.Sprintf("count=%d", (size+mib-1)/mib), "conv=fsync", "status=none")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("dd: %v\n%s", err, out)
	}
	return time.Since(start)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// reportSideBySide reports the median keys/s of n keys written by rdbgen (ours) and by
// hdt3213's encoder (theirs), their ratio (speedup), and rdbgen's time over dd's (over-dd)
// when dd ran, and logs them as a table.
func reportSideBySide(b *testing.B, n float64, ours, theirs, dds []time.Duration) {
	o, t, dd := median(ours), median(theirs), median(dds)
	b.ReportMetric(n/o.Seconds(), "rdbgen-keys/s")
	b.ReportMetric(n/t.Seconds(), "hdt3213-keys/s")
	b.ReportMetric(t.Seconds()/o.Seconds(), "speedup")
	if dd > 0 {
		b.ReportMetric(o.Seconds()/dd.Seconds(), "over-dd")
	}
	b.ReportMetric(0, "ns/op")
	row := func(name string, d time.Duration) string {
		line := fmt.Sprintf("\n%-16s %8.3f s %8.1f M keys/s", name, d.Seconds(), n/d.Seconds()/1e6)
		if name != "rdbgen" {
			line += fmt.Sprintf("   rdbgen %.2fx as fast", d.Seconds()/o.Seconds())
		}
		return line
	}
	table := fmt.Sprintf("medians of %d interleaved runs:", len(ours)) + row("rdbgen", o) + row("hdt3213 encoder", t)
	if dd > 0 {
		table += fmt.Sprintf("\n%-16s %8.3f s (the same bytes)   rdbgen takes %.2fx its time", "dd", dd.Seconds(), o.Seconds()/dd.Seconds())
	}
	b.Log(table)
}

// BenchmarkDefaultDataset writes the 10,000,000-key default dataset with rdbgen, with
// github.com/hdt3213/rdb's encoder, and as many bytes with dd (conv=fsync), side by side in
// each iteration, all synced to the same disk. It reports the median keys/s of both encoders,
// their ratio (speedup), and rdbgen's time over dd's (over-dd, 1 at the disk's speed).
// Run with: make bench (or -bench DefaultDataset -benchtime 5x).
func BenchmarkDefaultDataset(b *testing.B) {
	const n = 10_000_000
	d := classic(n)
	dir := b.TempDir()
	var ours, theirs, dds []time.Duration
	for b.Loop() {
		ours = append(ours, writeRdbgen(b, dir, d))
		theirs = append(theirs, writeBaseline(b, dir, d))
		st, err := os.Stat(filepath.Join(dir, "rdbgen.rdb"))
		if err != nil {
			b.Fatal(err)
		}
		dds = append(dds, writeDD(b, dir, st.Size()))
	}
	reportSideBySide(b, n, ours, theirs, dds)
}

// BenchmarkDefaultDatasetPipe writes the 10,000,000-key default dataset into a pipe with
// rdbgen and with github.com/hdt3213/rdb's encoder, and dd copies as many bytes from the page
// cache, side by side in each iteration. It reports the median keys/s of both encoders, their
// ratio (speedup), and rdbgen's time over dd's (over-dd). Run with: make bench (or -bench
// DatasetPipe -benchtime 5x).
func BenchmarkDefaultDatasetPipe(b *testing.B) {
	const n = 10_000_000
	d := classic(n)
	dir := b.TempDir()
	writeRdbgen(b, dir, d) // the bytes dd copies, in the page cache
	var ours, theirs, dds []time.Duration
	for b.Loop() {
		ours = append(ours, toPipe(b, func(w io.Writer) { encodeRdbgen(b, w, d) }))
		theirs = append(theirs, toPipe(b, func(w io.Writer) { encodeBaseline(b, w, d) }))
		dds = append(dds, readDD(b, filepath.Join(dir, "rdbgen.rdb")))
	}
	reportSideBySide(b, n, ours, theirs, dds)
}

// BenchmarkDefaultDatasetCPU writes the 10,000,000-key default dataset to io.Discard: the
// generator's own cost, without the disk. Compare GOMAXPROCS 1 and 2 with -cpu 1,2 (two cores
// must never be slower than one). Run with: go test -run '^$' -bench DatasetCPU -cpu 1,2 ./dataset
func BenchmarkDefaultDatasetCPU(b *testing.B) {
	const n = 10_000_000
	d := classic(n)
	for b.Loop() {
		if _, err := output.Write(context.Background(), io.Discard, d, output.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}

// BenchmarkPeakRSS runs the rdbgen binary on the default dataset and reports its peak resident
// memory, which must not grow with the key count. Run with: make bench.
func BenchmarkPeakRSS(b *testing.B) {
	bin := buildCLI(b)
	for _, n := range []int{10_000_000, 100_000_000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			took, peak := measureCLI(b, bin, "--count", fmt.Sprint(n))
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
			b.ReportMetric(float64(n)/took.Seconds(), "keys/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

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
// 7x ./dataset).
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
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/rdbgen").CombinedOutput(); err != nil {
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

// The collection benchmarks of issue 5: a million hashes of 10 fields (listpacks on Redis
// 7), and one set of ten million members (the plain type, streamed).
var collectionBenchmarks = []struct {
	name   string
	d      dataset.Config
	target string
}{
	{"hashes=1000000x10", dataset.Config{Count: 1_000_000, KeyPrefix: "key", KeyStart: 100000001, Type: record.Hash,
		Members: dataset.Range{Min: 10, Max: 10}}, "redis-7.0"},
	{"set=1x10000000", dataset.Config{Count: 1, KeyPrefix: "key", KeyStart: 100000001, Type: record.Set,
		Members: dataset.Range{Min: 10_000_000, Max: 10_000_000}}, "redis-7.0"},
}

// discardWriter drops what is written, so the benchmark measures generation and encoding.
type discardWriter struct{}

func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkCollections generates each collection dataset in memory and reports keys/s and
// members/s. Run with: go test -run XXX -bench Collections -benchmem -benchtime 3x ./dataset
func BenchmarkCollections(b *testing.B) {
	for _, bc := range collectionBenchmarks {
		b.Run(bc.name, func(b *testing.B) {
			var res *output.Result
			var took time.Duration
			for b.Loop() {
				var err error
				res, err = output.Write(context.Background(), discardWriter{}, &bc.d, output.Options{Encoder: encoder.Options{Target: bc.target}})
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
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/rdbgen").CombinedOutput(); err != nil {
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
