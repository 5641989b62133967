package rdbgen_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// generateCluster splits d by layout into buffers.
func generateCluster(t *testing.T, d *dataset.Spec, layout *cluster.Layout, opts encoder.Options) ([]*bytes.Buffer, rdbgen.ClusterResult) {
	t.Helper()
	bufs := make([]*bytes.Buffer, layout.Len())
	dsts := make([]io.Writer, layout.Len())
	for i := range bufs {
		bufs[i] = new(bytes.Buffer)
		dsts[i] = bufs[i]
	}
	res, err := rdbgen.WriteShards(context.Background(), dsts, d, layout, rdbgen.Options{Encoder: opts})
	if err != nil {
		t.Fatal(err)
	}
	return bufs, res
}

func TestGenerateClusterReadBack(t *testing.T) {
	base := time.Now().Add(time.Hour).UnixMilli()
	even3, _ := cluster.Even(3)
	uneven, err := cluster.NewLayout([]cluster.Shard{
		{Ranges: []cluster.Range{{First: 0, Last: 999}, {First: 10000, Last: 16383}}},
		{Ranges: []cluster.Range{{First: 1000, Last: 1998}}},
		{Ranges: []cluster.Range{{First: 1999, Last: 9999}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		d      dataset.Spec
		layout *cluster.Layout
		opts   encoder.Options
	}{
		"classic even": {dataset.Spec{Count: 3000, KeyPrefix: "key", KeyStart: 100000001}, even3, encoder.Options{}},
		"random ttl uneven": {dataset.Spec{Count: 2000, KeyPrefix: "s:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 40,
			Seed: 3, TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base}, uneven, encoder.Options{Target: "redis-7.0"}},
		"hash tags": {dataset.Spec{Count: 500, KeyPrefix: "{user1000}.", KeyStart: 1}, even3, encoder.Options{}},
		"empty":     {dataset.Spec{Count: 0, KeyPrefix: "k"}, even3, encoder.Options{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			bufs, res := generateCluster(t, &tc.d, tc.layout, tc.opts)
			if res.Total.Keys != tc.d.Count || res.Total.Expires != tc.d.Expires() || res.CountDuration <= 0 || res.Duration < res.CountDuration {
				t.Fatalf("result %+v", res)
			}
			all := map[string]parser.RedisObject{}
			for i, b := range bufs {
				p := parse(t, b.Bytes())
				checkTrailer(t, b.Bytes(), true)
				keys := p.keys[0]
				st := res.Shards[i]
				if uint64(len(keys)) != st.Keys || st.Bytes != int64(b.Len()) || len(p.keys) > 1 {
					t.Fatalf("shard %d: %d keys in db 0 (dbs %d), stats %+v", i, len(keys), len(p.keys), st)
				}
				if st.Keys > 0 && p.sizes[0] != [2]uint64{st.Keys, st.Expires} {
					t.Fatalf("shard %d: RESIZEDB %v, stats %+v", i, p.sizes[0], st)
				}
				if p.version != map[string]string{"": "0009", "redis-7.0": "0010"}[tc.opts.Target] {
					t.Fatalf("shard %d: version %s", i, p.version)
				}
				for key, o := range keys {
					if !tc.layout.Shard(i).Owns(cluster.KeySlot(key)) {
						t.Fatalf("shard %d holds %q of slot %d", i, key, cluster.KeySlot(key))
					}
					all[key] = o
				}
			}
			if uint64(len(all)) != tc.d.Count {
				t.Fatalf("shards hold %d keys, want %d", len(all), tc.d.Count)
			}
			for i := range tc.d.Count {
				checkRecord(t, all, &tc.d, i)
			}
			if name == "hash tags" {
				if n := res.Shards[tc.layout.ShardOf([]byte("{user1000}.1"))].Keys; n != tc.d.Count {
					t.Fatalf("hash-tagged keys spread over shards: %d of %d in one", n, tc.d.Count)
				}
			}
		})
	}
}

// TestGenerateClusterCollections splits hashes and sorted sets: each key, with all its
// members, lands in the shard of its slot.
func TestGenerateClusterCollections(t *testing.T) {
	layout, _ := cluster.Even(3)
	for _, typ := range []record.Type{record.Hash, record.ZSet} {
		t.Run(string(typ), func(t *testing.T) {
			d := dataset.Spec{Count: 300, KeyPrefix: "c:", KeyStart: 1, Type: typ, Members: dataset.Range{Min: 1, Max: 200}, Seed: 4}
			bufs, res := generateCluster(t, &d, layout, encoder.Options{Target: "redis-7.0"})
			all := map[string]parser.RedisObject{}
			for i, b := range bufs {
				for key, o := range parse(t, b.Bytes()).keys[0] {
					if layout.ShardOf([]byte(key)) != i {
						t.Fatalf("shard %d holds %q", i, key)
					}
					all[key] = o
				}
			}
			var members uint64
			for i := range d.Count {
				want := d.Record(i)
				members += uint64(len(want.Members))
				o, ok := all[string(want.Key)]
				if !ok {
					t.Fatalf("key %q missing", want.Key)
				}
				checkCollection(t, o, want)
			}
			if res.Total.Members != members || uint64(len(all)) != d.Count {
				t.Fatalf("%d keys, %d members; want %d, %d", len(all), res.Total.Members, d.Count, members)
			}
		})
	}
}

func TestGenerateClusterErrors(t *testing.T) {
	layout, _ := cluster.Even(2)
	dsts := []io.Writer{io.Discard, io.Discard}
	d := &dataset.Spec{Count: 10, KeyPrefix: "k", DB: 3}
	if _, err := rdbgen.WriteShards(context.Background(), dsts, d, layout, rdbgen.Options{}); !errors.Is(err, cluster.ErrDB) {
		t.Fatalf("db 3: %v", err)
	}
	d.DB = 0
	if _, err := rdbgen.WriteShards(context.Background(), dsts[:1], d, layout, rdbgen.Options{}); err == nil {
		t.Fatal("one destination for two shards: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d.Count = 1 << 20
	if _, err := rdbgen.WriteShards(ctx, dsts, d, layout, rdbgen.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// Over a million keys, the counting pass runs in parts: a miscount would fail Close.
	big := &dataset.Spec{Count: 1<<20 + 7, KeyPrefix: "k", TTL: time.Hour, BaseTimeMS: 1}
	res, err := rdbgen.WriteShards(context.Background(), []io.Writer{io.Discard, io.Discard}, big, layout, rdbgen.Options{})
	if err != nil || res.Total.Keys != big.Count || res.Total.Expires != big.Count {
		t.Fatalf("%+v, %v", res.Total, err)
	}
	var calls int
	d.Count = 200000
	if _, err := rdbgen.WriteShards(context.Background(), dsts, d, layout, rdbgen.Options{Progress: func(p record.Progress) {
		calls++
		if p.Total != d.Count || p.Keys > p.Total {
			t.Errorf("progress %+v", p)
		}
	}}); err != nil || calls < 3 {
		t.Fatalf("err %v, %d progress calls", err, calls)
	}
}
