package rdbgen_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// TestWriteShardsIntoFiles splits sources into files, whose headers are written last with
// the counts each shard got, and into buffers, which a counting pass declares the counts
// of: the files are the same, byte for byte, also where the room left for a header missed
// its length (all keys under one hash tag leave two shards empty; small buffers flush
// before the counts are known).
func TestWriteShardsIntoFiles(t *testing.T) {
	base := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC).UnixMilli()
	even3, _ := cluster.Even(3)
	uneven, err := cluster.NewLayout([]cluster.Shard{
		{Ranges: []cluster.Range{{First: 0, Last: 99}}},
		{Ranges: []cluster.Range{{First: 100, Last: 16383}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	springs := loadExample(t, "spring-data-redis.yaml")
	p := springs.Params
	p.BaseTimeMS, p.CountScale = base, 0.05
	if err := springs.SetParams(p); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		src    record.KeyLister
		layout *cluster.Layout
		opts   encoder.Options
	}{
		{"default dataset", classic(100_000), even3, encoder.Options{}},
		{"flushed early", classic(100_000), even3, encoder.Options{BufferSize: 4096}},
		{"ttl, uneven", &dataset.Spec{Count: 50_000, KeyPrefix: "s:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 40,
			Seed: 3, TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base}, uneven, encoder.Options{BufferSize: 4096, Target: "redis-7.0"}},
		{"one hash tag", &dataset.Spec{Count: 30_000, KeyPrefix: "{user1000}.", KeyStart: 1}, even3, encoder.Options{BufferSize: 4096}},
		{"hashes", &dataset.Spec{Count: 20_000, KeyPrefix: "h:", KeyStart: 1, Type: record.Hash,
			Members: dataset.Range{Min: 1, Max: 20}, Seed: 4}, even3, encoder.Options{BufferSize: 4096}},
		{"spec", springs, even3, encoder.Options{BufferSize: 4096, Target: "redis-7.0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.CreatedAt = time.UnixMilli(base)
			bufs, dsts := shardBuffers(tc.layout)
			counted, err := rdbgen.WriteShards(context.Background(), dsts, tc.src, tc.layout, rdbgen.Options{Encoder: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			if counted.CountDuration <= 0 {
				t.Fatalf("into buffers: no counting pass: %+v", counted)
			}
			dir := t.TempDir()
			files := make([]io.Writer, tc.layout.Len())
			for i := range files {
				f, err := os.Create(filepath.Join(dir, cluster.ShardFile(i)))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				files[i] = f
			}
			reports := 0
			filled, err := rdbgen.WriteShards(context.Background(), files, tc.src, tc.layout, rdbgen.Options{
				Encoder:  tc.opts,
				Progress: func(record.Progress) { reports++ },
			})
			if err != nil {
				t.Fatal(err)
			}
			if filled.CountDuration != 0 || reports == 0 {
				t.Fatalf("into files: counting pass of %v, %d progress reports", filled.CountDuration, reports)
			}
			for i, b := range bufs {
				got, err := os.ReadFile(filepath.Join(dir, cluster.ShardFile(i)))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, b.Bytes()) {
					t.Errorf("shard %d: the file (%d bytes) differs from the counted split (%d bytes)", i, len(got), b.Len())
				}
				if filled.Shards[i] != counted.Shards[i] {
					t.Errorf("shard %d: stats %+v, counted %+v", i, filled.Shards[i], counted.Shards[i])
				}
			}
		})
	}
}
