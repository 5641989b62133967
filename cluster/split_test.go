package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/internal/readback"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

// generateCluster splits d by layout into buffers.
func generateCluster(t *testing.T, d *dataset.Config, layout *cluster.Layout, opts encoder.Options) ([]*bytes.Buffer, *output.Result) {
	t.Helper()
	bufs := make([]*bytes.Buffer, layout.Len())
	dsts := make([]io.Writer, layout.Len())
	for i := range bufs {
		bufs[i] = new(bytes.Buffer)
		dsts[i] = bufs[i]
	}
	res, err := output.WriteShards(context.Background(), dsts, d, layout, output.Options{Encoder: opts})
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
		d      dataset.Config
		layout *cluster.Layout
		opts   encoder.Options
	}{
		"classic even": {dataset.Config{Count: 3000, KeyPrefix: "key", KeyStart: 100000001}, even3, encoder.Options{}},
		"random ttl uneven": {dataset.Config{Count: 2000, KeyPrefix: "s:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 40,
			Seed: 3, TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base}, uneven, encoder.Options{Target: "redis-7.0"}},
		"hash tags": {dataset.Config{Count: 500, KeyPrefix: "{user1000}.", KeyStart: 1}, even3, encoder.Options{}},
		"empty":     {dataset.Config{Count: 0, KeyPrefix: "k"}, even3, encoder.Options{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			bufs, res := generateCluster(t, &tc.d, tc.layout, tc.opts)
			if res.Stats.Keys != tc.d.Count || res.Stats.Expires != tc.d.Expires() || res.CountDuration <= 0 || res.Duration < res.CountDuration {
				t.Fatalf("result %+v", res)
			}
			all := map[string]parser.RedisObject{}
			for i, b := range bufs {
				p := readback.Parse(t, b.Bytes())
				readback.CheckTrailer(t, b.Bytes(), true)
				keys := p.Keys[0]
				st := res.Shards[i].Stats
				if uint64(len(keys)) != st.Keys || st.Bytes != int64(b.Len()) || len(p.Keys) > 1 {
					t.Fatalf("shard %d: %d keys in db 0 (dbs %d), stats %+v", i, len(keys), len(p.Keys), st)
				}
				if st.Keys > 0 && p.Sizes[0] != [2]uint64{st.Keys, st.Expires} {
					t.Fatalf("shard %d: RESIZEDB %v, stats %+v", i, p.Sizes[0], st)
				}
				if p.Version != map[string]string{"": "0009", "redis-7.0": "0010"}[tc.opts.Target] {
					t.Fatalf("shard %d: version %s", i, p.Version)
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
				readback.CheckString(t, all, &tc.d, i)
			}
			if name == "hash tags" {
				if n := res.Shards[tc.layout.ShardOf([]byte("{user1000}.1"))].Stats.Keys; n != tc.d.Count {
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
			d := dataset.Config{Count: 300, KeyPrefix: "c:", KeyStart: 1, Type: typ, Members: dataset.Range{Min: 1, Max: 200}, Seed: 4}
			bufs, res := generateCluster(t, &d, layout, encoder.Options{Target: "redis-7.0"})
			all := map[string]parser.RedisObject{}
			for i, b := range bufs {
				for key, o := range readback.Parse(t, b.Bytes()).Keys[0] {
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
				readback.CheckCollection(t, o, want)
			}
			if res.Stats.Members != members || uint64(len(all)) != d.Count {
				t.Fatalf("%d keys, %d members; want %d, %d", len(all), res.Stats.Members, d.Count, members)
			}
		})
	}
}

func TestGenerateClusterErrors(t *testing.T) {
	layout, _ := cluster.Even(2)
	dsts := []io.Writer{io.Discard, io.Discard}
	d := &dataset.Config{Count: 10, KeyPrefix: "k", DB: 3}
	if _, err := output.WriteShards(context.Background(), dsts, d, layout, output.Options{}); !errors.Is(err, cluster.ErrDB) {
		t.Fatalf("db 3: %v", err)
	}
	d.DB = 0
	if _, err := output.WriteShards(context.Background(), dsts[:1], d, layout, output.Options{}); err == nil {
		t.Fatal("one destination for two shards: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d.Count = 1 << 20
	if _, err := output.WriteShards(ctx, dsts, d, layout, output.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// Over a million keys, the counting pass runs in parts: a miscount would fail Close.
	big := &dataset.Config{Count: 1<<20 + 7, KeyPrefix: "k", TTL: time.Hour, BaseTimeMS: 1}
	res, err := output.WriteShards(context.Background(), []io.Writer{io.Discard, io.Discard}, big, layout, output.Options{})
	if err != nil || res.Stats.Keys != big.Count || res.Stats.Expires != big.Count {
		t.Fatalf("%+v, %v", res.Stats, err)
	}
	var calls int
	d.Count = 200000
	if _, err := output.WriteShards(context.Background(), dsts, d, layout, output.Options{Progress: func(p record.Progress) {
		calls++
		if p.Total != d.Count || p.Keys > p.Total {
			t.Errorf("progress %+v", p)
		}
	}}); err != nil || calls < 3 {
		t.Fatalf("err %v, %d progress calls", err, calls)
	}
}

// shardBuffers returns a buffer per shard of layout, and the same as writers.
func shardBuffers(layout *cluster.Layout) ([]*bytes.Buffer, []io.Writer) {
	bufs := make([]*bytes.Buffer, layout.Len())
	dsts := make([]io.Writer, layout.Len())
	for i := range bufs {
		bufs[i] = new(bytes.Buffer)
		dsts[i] = bufs[i]
	}
	return bufs, dsts
}

// readShards parses every shard and checks that each key is in the shard of its slot; it
// returns all keys.
func readShards(t *testing.T, bufs []*bytes.Buffer, layout *cluster.Layout, stats []encoder.Stats) map[string]parser.RedisObject {
	t.Helper()
	all := map[string]parser.RedisObject{}
	for i, b := range bufs {
		p := readback.Parse(t, b.Bytes())
		if len(p.Keys) > 1 || uint64(len(p.Keys[0])) != stats[i].Keys {
			t.Fatalf("shard %d: dbs %d, %d keys in db 0, stats %+v", i, len(p.Keys), len(p.Keys[0]), stats[i])
		}
		for key, o := range p.Keys[0] {
			if layout.ShardOf([]byte(key)) != i {
				t.Fatalf("shard %d holds %q of slot %d", i, key, cluster.KeySlot(key))
			}
			all[key] = o
		}
	}
	return all
}

// shardStats returns the stats of res's shards, by index.
func shardStats(res *output.Result) []encoder.Stats {
	var stats []encoder.Stats
	for _, s := range res.Shards {
		stats = append(stats, s.Stats)
	}
	return stats
}

// TestGenerateSpecCluster splits the spring-data-redis example and a spec with hash tags:
// every record of the spec, as the spec recomputes it, is in its shard, and each shard's
// RESIZEDB counts (checked by the encoder on Close) come from the counting pass.
func TestGenerateSpecCluster(t *testing.T) {
	tagged := `
families:
  - name: followers
    key: "{{user{id}}}.followers"
    count: 300
    type: set
    members: {count: 3, value: {int: {min: 1, max: 1000000}}}
  - name: following
    key: "{{user{id}}}.following"
    count: 300
    ttl: 1h
    value: {string: {length: 8}}
`
	example, err := os.ReadFile("../examples/spring-data-redis.yaml")
	if err != nil {
		t.Fatal(err)
	}
	layout, _ := cluster.Even(3)
	for name, src := range map[string]string{"tags": tagged, "spring-data-redis": string(example)} {
		t.Run(name, func(t *testing.T) {
			s, err := spec.Parse(name+".yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			p := s.Params
			p.BaseTimeMS = time.Now().UnixMilli()
			p.CountScale = 0.05
			if err := s.SetParams(p); err != nil {
				t.Fatal(err)
			}
			bufs, dsts := shardBuffers(layout)
			res, err := output.WriteShards(context.Background(), dsts, s, layout, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.Keys != s.Keys() || res.CountDuration <= 0 {
				t.Fatalf("result %+v for %d keys", res, s.Keys())
			}
			all := readShards(t, bufs, layout, shardStats(res))
			for _, f := range s.Families {
				for i := range f.Keys() {
					want, err := f.Record(i)
					if err != nil {
						t.Fatal(err)
					}
					if _, ok := all[string(want.Key)]; !ok {
						t.Fatalf("family %s record %d (%q) is missing", f.Name, i, want.Key)
					}
				}
			}
			if name == "tags" {
				// {user5}.followers and {user5}.following share a slot, so a shard.
				a, b := layout.ShardOf([]byte("{user5}.followers")), layout.ShardOf([]byte("{user5}.following"))
				if _, ok := all["{user5}.followers"]; !ok || a != b {
					t.Fatalf("hash-tagged keys: shards %d and %d", a, b)
				}
			}
		})
	}
	// A family outside db 0 is refused before anything is written.
	s, err := spec.Parse("db1.yaml", []byte("families:\n  - name: x\n    key: \"k{id}\"\n    count: 3\n    db: 1\n    value: v\n"))
	if err != nil {
		t.Fatal(err)
	}
	bufs, dsts := shardBuffers(layout)
	if _, err := output.WriteShards(context.Background(), dsts, s, layout, output.Options{}); !errors.Is(err, cluster.ErrDB) || bufs[0].Len() != 0 {
		t.Fatalf("db 1: %v, %d bytes written", err, bufs[0].Len())
	}
}

// TestImportCluster splits JSON Lines of every type; a record in db 2 fails the import.
func TestImportCluster(t *testing.T) {
	var jsonl strings.Builder
	for i := range 200 {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&jsonl, `{"db":0,"key":"s%d","type":"string","value":"v%d"}`+"\n", i, i)
		case 1:
			fmt.Fprintf(&jsonl, `{"db":0,"key":"{tag}h%d","type":"hash","hash":{"f":"%d"}}`+"\n", i, i)
		case 2:
			fmt.Fprintf(&jsonl, `{"db":0,"key":"z%d","type":"zset","entries":[{"member":"m","score":%d}]}`+"\n", i, i)
		}
	}
	layout, _ := cluster.Even(3)
	open := func(text string) func() (importer.Reader, error) {
		return func() (importer.Reader, error) { return importer.NewJSONReader(strings.NewReader(text)), nil }
	}
	bufs, dsts := shardBuffers(layout)
	src := &importer.Source{Open: open(jsonl.String())}
	res, err := output.WriteShards(context.Background(), dsts, src, layout, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	stats := src.Stats
	if err != nil {
		t.Fatal(err)
	}
	if stats.Records != 200 || res.Stats.Keys != 200 || res.CountDuration != 0 {
		t.Fatalf("stats %+v, result %+v", stats, res)
	}
	all := readShards(t, bufs, layout, shardStats(res))
	if o, ok := all["{tag}h1"].(*parser.HashObject); !ok || string(o.Hash["f"]) != "1" {
		t.Fatalf("{tag}h1 = %#v", all["{tag}h1"])
	}
	for i, b := range bufs {
		if p := readback.Parse(t, b.Bytes()); len(p.Sizes) != 0 {
			t.Fatalf("shard %d declares RESIZEDB %v without a counting pass", i, p.Sizes)
		}
	}
	_, dsts = shardBuffers(layout)
	src = &importer.Source{Open: open(jsonl.String() + `{"db":2,"key":"x","type":"string","value":"v"}` + "\n")}
	_, err = output.WriteShards(context.Background(), dsts, src, layout, output.Options{})
	if !errors.Is(err, cluster.ErrDB) {
		t.Fatalf("a record in db 2: %v", err)
	}
}

// TestWriterIsASink writes records through the record.Sink interface, as spec files and
// imports do.
func TestWriterIsASink(t *testing.T) {
	layout, _ := cluster.Even(2)
	bufs, dsts := shardBuffers(layout)
	w, err := cluster.NewWriter(dsts, layout, cluster.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var sink record.Sink = w
	if err := sink.BeginDB(3, record.Counts{}); !errors.Is(err, cluster.ErrDB) {
		t.Fatalf("BeginDB(3) = %v", err)
	}
	if err := sink.BeginDB(0, record.Counts{Keys: 99}); err != nil {
		t.Fatalf("BeginDB(0) = %v", err)
	}
	if err := sink.BeginDB(0, record.Counts{}); !errors.Is(err, encoder.ErrDBReopened) {
		t.Fatalf("BeginDB(0) again = %v", err)
	}
	if err := sink.Add(&record.Member{Name: []byte("f"), Value: []byte("v")}); !errors.Is(err, encoder.ErrNoCollection) {
		t.Fatalf("Add without a collection = %v", err)
	}
	recs := []record.Record{
		{Key: []byte("foo"), Type: record.Hash, Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}},
		{Key: []byte("bar"), Type: record.List, Members: []record.Member{{Name: []byte("a")}, {Name: []byte("b")}}},
		{Key: []byte("hello"), Type: record.Set, Members: []record.Member{{Name: []byte("m")}}},
		{Key: []byte("somekey"), Type: record.ZSet, Members: []record.Member{{Name: []byte("m"), Score: 1.5}}},
		{Key: []byte("{user1000}.following"), Type: record.String, Value: []byte("v")},
	}
	for _, r := range recs {
		if err := r.WriteTo(sink); err != nil {
			t.Fatalf("write %s: %v", r.Key, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	all := readShards(t, bufs, layout, w.Stats())
	if len(all) != len(recs) {
		t.Fatalf("%d keys", len(all))
	}
}
