package output_test

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestShardsFilledAsCounted splits sources into files, whose headers are written last with
// the counts each shard got, and into buffers, which a counting pass declares the counts of:
// the files are the same, byte for byte, also where the room left for a header missed its
// length (all keys under one hash tag leave two shards empty; small buffers flush before the
// counts are known), and a source large enough is counted in parts alike.
func TestShardsFilledAsCounted(t *testing.T) {
	base := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC).UnixMilli()
	even3, _ := cluster.Even(3)
	uneven, err := cluster.NewLayout([]cluster.Shard{
		{Ranges: []cluster.Range{{First: 0, Last: 99}}},
		{Ranges: []cluster.Range{{First: 100, Last: 16383}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	springs := loadExample(t, "spring-data-redis.yaml", time.UnixMilli(base))
	classic := func(n uint64) *dataset.Config {
		return &dataset.Config{Count: n, KeyPrefix: "key", KeyStart: 100000001}
	}
	cases := []struct {
		name   string
		src    record.KeyLister
		layout *cluster.Layout
		opts   encoder.Options
	}{
		{"default dataset", classic(100_000), even3, encoder.Options{}},
		{"in parts", classic(1<<20 + 1000), even3, encoder.Options{}},
		{"flushed early", classic(100_000), even3, encoder.Options{BufferSize: 4096}},
		{"ttl, uneven", &dataset.Config{Count: 50_000, KeyPrefix: "s:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 40,
			Seed: 3, TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base}, uneven, encoder.Options{BufferSize: 4096, Target: "redis-7.0"}},
		{"one hash tag", &dataset.Config{Count: 30_000, KeyPrefix: "{user1000}.", KeyStart: 1}, even3, encoder.Options{BufferSize: 4096}},
		{"hashes", &dataset.Config{Count: 20_000, KeyPrefix: "h:", KeyStart: 1, Type: record.Hash,
			Members: dataset.Range{Min: 1, Max: 20}, Seed: 4}, even3, encoder.Options{BufferSize: 4096}},
		{"spec", springs, even3, encoder.Options{BufferSize: 4096, Target: "redis-7.0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.CreatedAt = time.UnixMilli(base)
			counts, err := cluster.CountShards(t.Context(), tc.src, tc.layout)
			if err != nil {
				t.Fatal(err)
			}
			bufs := make([]*bytes.Buffer, tc.layout.Len())
			dsts := make([]io.Writer, len(bufs))
			for i := range bufs {
				bufs[i] = new(bytes.Buffer)
				dsts[i] = bufs[i]
			}
			w, err := cluster.NewWriter(dsts, tc.layout, cluster.WriterOptions{Encoder: tc.opts, Counts: counts})
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.src.WriteTo(t.Context(), w); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			out, err := output.Shards(t.TempDir(), tc.layout, output.Options{Encoder: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			res, err := out.Write(t.Context(), tc.src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.CountDuration != 0 {
				t.Fatalf("into files: a counting pass of %v", res.CountDuration)
			}
			for i, b := range bufs {
				got, err := os.ReadFile(res.Shards[i].Path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, b.Bytes()) {
					t.Errorf("shard %d: the file (%d bytes) differs from the counted split (%d bytes)", i, len(got), b.Len())
				}
				if res.Shards[i].Stats != w.Stats()[i] {
					t.Errorf("shard %d: stats %+v, counted %+v", i, res.Shards[i].Stats, w.Stats()[i])
				}
			}
		})
	}
}
