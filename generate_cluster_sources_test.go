package rdbgen_test

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

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/importer"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
)

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
func readShards(t *testing.T, bufs []*bytes.Buffer, layout *cluster.Layout, res rdbgen.ClusterResult) map[string]parser.RedisObject {
	t.Helper()
	all := map[string]parser.RedisObject{}
	for i, b := range bufs {
		p := parse(t, b.Bytes())
		if len(p.keys) > 1 || uint64(len(p.keys[0])) != res.Shards[i].Keys {
			t.Fatalf("shard %d: dbs %d, %d keys in db 0, stats %+v", i, len(p.keys), len(p.keys[0]), res.Shards[i])
		}
		for key, o := range p.keys[0] {
			if layout.ShardOf([]byte(key)) != i {
				t.Fatalf("shard %d holds %q of slot %d", i, key, cluster.KeySlot(key))
			}
			all[key] = o
		}
	}
	return all
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
	example, err := os.ReadFile("examples/spring-data-redis.yaml")
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
			res, err := rdbgen.WriteShards(context.Background(), dsts, s, layout, rdbgen.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Total.Keys != s.Keys() || res.CountDuration <= 0 {
				t.Fatalf("result %+v for %d keys", res, s.Keys())
			}
			all := readShards(t, bufs, layout, res)
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
	if _, err := rdbgen.WriteShards(context.Background(), dsts, s, layout, rdbgen.Options{}); !errors.Is(err, cluster.ErrDB) || bufs[0].Len() != 0 {
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
	res, err := rdbgen.WriteShards(context.Background(), dsts, src, layout, rdbgen.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	stats := src.Stats
	if err != nil {
		t.Fatal(err)
	}
	if stats.Records != 200 || res.Total.Keys != 200 || res.CountDuration != 0 {
		t.Fatalf("stats %+v, result %+v", stats, res)
	}
	all := readShards(t, bufs, layout, res)
	if o, ok := all["{tag}h1"].(*parser.HashObject); !ok || string(o.Hash["f"]) != "1" {
		t.Fatalf("{tag}h1 = %#v", all["{tag}h1"])
	}
	for i, b := range bufs {
		if p := parse(t, b.Bytes()); len(p.sizes) != 0 {
			t.Fatalf("shard %d declares RESIZEDB %v without a counting pass", i, p.sizes)
		}
	}
	_, dsts = shardBuffers(layout)
	src = &importer.Source{Open: open(jsonl.String() + `{"db":2,"key":"x","type":"string","value":"v"}` + "\n")}
	_, err = rdbgen.WriteShards(context.Background(), dsts, src, layout, rdbgen.Options{})
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
	all := readShards(t, bufs, layout, rdbgen.ClusterResult{Shards: w.Stats()})
	if len(all) != len(recs) {
		t.Fatalf("%d keys", len(all))
	}
}
