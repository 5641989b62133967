package convert_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// BenchmarkConvertDefaultDump writes the default dataset of 10M keys (-short: 1M) as
// `rdbgen --count` does, and converts that dump for redis-7.0 as `rdbgen convert --target
// redis-7.0` does (duplicate keys checked, the default), side by side in each iteration. It
// reports the keys/s of both and convert's time over generate's (issue 23 asks for at most 2).
func BenchmarkConvertDefaultDump(b *testing.B) {
	n := 10_000_000
	if testing.Short() {
		n = 1_000_000
	}
	ctx := context.Background()
	dir := b.TempDir()
	gen, conv := filepath.Join(dir, "g.rdb"), filepath.Join(dir, "c.rdb")
	var genTime, convTime time.Duration
	for b.Loop() {
		start := time.Now()
		out, err := output.File(gen, output.Options{Force: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := out.Write(ctx, &dataset.Config{Count: uint64(n), KeyPrefix: "key", KeyStart: 100000001, Value: dataset.ValueSame}, nil); err != nil {
			b.Fatal(err)
		}
		genTime += time.Since(start)

		start = time.Now()
		enc := encoder.Options{Target: "redis-7.0", CountsAreHints: true}
		src, stats, err := convert.Through(decoder.File{Path: gen, Options: decoder.Options{OnDuplicate: record.DupError}}, enc, convert.Options{})
		if err != nil {
			b.Fatal(err)
		}
		out, err = output.File(conv, output.Options{Encoder: enc, Force: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := out.Write(ctx, src, nil); err != nil {
			b.Fatal(err)
		}
		convTime += time.Since(start)
		if stats.Read != uint64(n) {
			b.Fatalf("converted %d keys, want %d", stats.Read, n)
		}
		os.Remove(conv)
	}
	iters := float64(b.N)
	b.ReportMetric(float64(n)*iters/genTime.Seconds(), "gen-keys/s")
	b.ReportMetric(float64(n)*iters/convTime.Seconds(), "convert-keys/s")
	b.ReportMetric(convTime.Seconds()/genTime.Seconds(), "convert/gen")
}
