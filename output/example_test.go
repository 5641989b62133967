package output_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/rdbgen/rdbgen/spec"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// A test that needs a Redis holding a thousand keys writes the dump file and starts the
// server on it.
func ExampleFile() {
	dir, err := os.MkdirTemp("", "rdbgen-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "dump.rdb")

	d := &dataset.Config{Count: 1000, KeyPrefix: "user:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 32, Seed: 1}
	out, err := output.File(path, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	if err != nil {
		log.Fatal(err)
	}
	res, err := out.Write(context.Background(), d, nil)
	if err != nil {
		log.Fatal(err)
	}
	m, err := manifest.Read(res.Manifest)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d keys, RDB %d for %s\n", filepath.Base(res.Path), res.Stats.Keys, res.RDBVersion, res.Target)
	fmt.Printf("%s: %d keys of %s%d...\n", filepath.Base(res.Manifest), m.Keys, m.Dataset.KeyPrefix, m.Dataset.KeyStart)
	// Output:
	// dump.rdb: 1000 keys, RDB 10 for redis-7.0
	// dump.rdb.manifest.json: 1000 keys of user:1...
}

// A source of one's own: a few hand-made records, split for a Redis Cluster of three
// primaries, written through the output's Sink. Keys with the same hash tag land in the same
// shard.
func ExampleShards() {
	dir, err := os.MkdirTemp("", "rdbgen-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	recs := []record.Record{
		{Key: []byte("{user1}.name"), Value: []byte("Ada")},
		{Key: []byte("{user1}.roles"), Type: record.Set, Members: []record.Member{{Name: []byte("admin")}, {Name: []byte("dev")}}},
		{Key: []byte("{user2}.name"), Value: []byte("Grace")},
		{Key: []byte("counter"), Value: []byte("42"), ExpireAtMS: 4102444800000},
	}
	layout, err := cluster.Even(3)
	if err != nil {
		log.Fatal(err)
	}
	out, err := output.Shards(dir, layout, output.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer out.Abort()
	sink := out.Sink()
	if err := sink.BeginDB(0, record.Counts{Keys: uint64(len(recs))}); err != nil {
		log.Fatal(err)
	}
	for i := range recs {
		if err := recs[i].WriteTo(sink); err != nil {
			log.Fatal(err)
		}
	}
	res, err := out.Commit(nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, sr := range res.Shards {
		fmt.Printf("%s (slots %s): %d keys, %d with TTL\n", filepath.Base(sr.Path), layout.Shard(sr.Index).RangesString(), sr.Stats.Keys, sr.Stats.Expires)
	}
	// Output:
	// shard-0.rdb (slots 0-5460): 0 keys, 0 with TTL
	// shard-1.rdb (slots 5461-10922): 3 keys, 1 with TTL
	// shard-2.rdb (slots 10923-16383): 1 keys, 0 with TTL
}

// Any record.Source goes the same way; here a spec file, written to memory.
func ExampleWrite_spec() {
	s, err := spec.Parse("app.yaml", []byte(`
families:
  - key: "session:{id}"
    count: 100
    type: hash
    fields:
      user: {fake: username}
      hits: {int: {min: 0, max: 1000}}
  - key: "sessions"
    type: set
    members: {of_family: "session:{id}"}
`))
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	res, err := output.Write(context.Background(), &buf, s, output.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d keys, %d members, all %d bytes written: %t\n", res.Stats.Keys, res.Stats.Members, res.Stats.Bytes, res.Stats.Bytes == int64(buf.Len()))
	// Output:
	// 101 keys, 300 members, all 5614 bytes written: true
}
