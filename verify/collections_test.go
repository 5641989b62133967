package verify_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/manifest"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/spec"
	"github.com/rdbgen/rdbgen/verify"
)

// collection returns a dataset of n keys of type typ with members members each.
func collection(typ record.Type, n uint64, members dataset.Range, random bool) dataset.Config {
	d := withTTL(n)
	d.KeyPrefix, d.Type, d.Members = string(typ)+":", typ, members
	if random {
		d.Value, d.ValueSize = dataset.ValueRandom, 16
	}
	return d
}

// TestFileCollectionsPass loads collections of every type, small ones read whole and large
// ones checked by sampled members, in the encodings of RDB 9 and RDB 10.
func TestFileCollectionsPass(t *testing.T) {
	for _, typ := range []record.Type{record.Hash, record.List, record.Set, record.ZSet, record.Stream} {
		for _, tc := range []struct {
			name    string
			n       uint64
			members dataset.Range
			random  bool
			target  string
		}{
			{"small", 300, dataset.Range{Min: 1, Max: 20}, false, ""},
			{"small random redis-7.0", 300, dataset.Range{Min: 1, Max: 20}, true, "redis-7.0"},
			{"large", 4, dataset.Range{Min: 1500, Max: 3000}, true, "redis-7.0"},
		} {
			t.Run(string(typ)+" "+tc.name, func(t *testing.T) {
				d := collection(typ, tc.n, tc.members, tc.random)
				path, m := generate(t, d, encoder.Options{Target: tc.target})
				rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: processOptions(t)})
				wantPass(t, rep, err)
				if got := rep.File.DBs[0].Types[string(typ)]; got != tc.n || rep.Server.Sampled != int(tc.n) {
					t.Fatalf("%d %s keys in the file, %d sampled", got, typ, rep.Server.Sampled)
				}
			})
		}
	}
}

// TestServerCollectionMismatches changes one member of a collection on a live server: the
// check must name it, whether the collection is read whole or by sampled members.
func TestServerCollectionMismatches(t *testing.T) {
	tests := []struct {
		typ    record.Type
		change func(ctx context.Context, c *redis.Client, key string) error
		want   string
	}{
		{record.Hash, func(ctx context.Context, c *redis.Client, key string) error {
			return c.HSet(ctx, key, "field1", "x").Err()
		},
			`: field "field1": got "x", want "field1"`},
		{record.Hash, func(ctx context.Context, c *redis.Client, key string) error { return c.HDel(ctx, key, "field1").Err() },
			`: fields: got `},
		{record.List, func(ctx context.Context, c *redis.Client, key string) error { return c.LSet(ctx, key, 0, "x").Err() },
			`: element 0: got "x", want "member1"`},
		{record.Set, func(ctx context.Context, c *redis.Client, key string) error {
			c.SRem(ctx, key, "member1")
			return c.SAdd(ctx, key, "x").Err()
		}, `: member "member1": got missing, want present`},
		{record.ZSet, func(ctx context.Context, c *redis.Client, key string) error {
			return c.ZAdd(ctx, key, redis.Z{Member: "member1", Score: 0.5}).Err()
		}, `: score of "member1": got 0.5, want `},
		{record.Stream, func(ctx context.Context, c *redis.Client, key string) error {
			return c.XAdd(ctx, &redis.XAddArgs{Stream: key, ID: "*", Values: []any{"value", "x"}}).Err()
		}, `: entries: got `},
		{record.Stream, func(ctx context.Context, c *redis.Client, key string) error {
			ids, err := c.XRange(ctx, key, "-", "+").Result()
			if err != nil {
				return err
			}
			last := ids[len(ids)-1].ID // ms-0: replaced by ms-1
			c.XDel(ctx, key, last)
			return c.XAdd(ctx, &redis.XAddArgs{Stream: key, ID: strings.TrimSuffix(last, "0") + "1", Values: []any{"value", "x"}}).Err()
		}, `: entry `},
		{record.Stream, func(ctx context.Context, c *redis.Client, key string) error {
			return c.XGroupCreate(ctx, key, "g", "0").Err()
		}, `: groups: got 1, want 0`},
	}
	for _, tt := range tests {
		for _, members := range []dataset.Range{{Min: 10, Max: 10}, {Min: 1200, Max: 1200}} {
			t.Run(fmt.Sprintf("%s of %d", tt.typ, members.Min), func(t *testing.T) {
				d := collection(tt.typ, 20, members, false)
				inst, opts := startServer(t, d)
				ctx := testContext(t)
				key := string(d.AppendKey(nil, 19)) // the last record: always sampled
				if err := tt.change(ctx, inst.Client(), key); err != nil {
					t.Fatal(err)
				}
				rep, err := verify.Server(ctx, &redis.Options{Addr: inst.Addr}, *opts)
				wantFail(t, rep, err, verify.StageServer, fmt.Sprintf("db 0 key %q%s", key, tt.want))
				if rep.MismatchCount != 1 {
					t.Fatalf("mismatches %v", rep.Mismatches)
				}
			})
		}
	}
}

// testSpec has families of every type over two databases: two of them share a key pattern
// with adjacent ids, so the key after the first family's last is the second's first.
const testSpec = `seed: 7
families:
  - name: users
    key: "user:{id}"
    count: 200
    type: hash
    fields:
      name: {fake: name}
      age: {int: {min: 18, max: 99}}
  - name: more users
    key: "user:{id}"
    id_start: 201
    count: 100
    type: hash
    fields:
      name: {fake: name}
  - name: sessions
    key: "session:{uuid}"
    count: 300
    db: 2
    ttl: 1h
    ttl_jitter: 1m
    value: {uuid: {}}
  - name: user ids
    key: user-ids
    type: set
    members: {of_family: users}
  - name: scores
    key: "scores:{id}"
    count: 50
    type: zset
    members: {count: 1-30, value: {fake: username}}
`

// generateSpec writes the spec text with rdbgen, and its manifest as generate --spec does.
func generateSpec(t *testing.T, text string) (string, *manifest.Manifest) {
	t.Helper()
	s, err := spec.Parse("test.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	p := s.Params
	p.BaseTimeMS = time.Now().UnixMilli()
	if err := s.SetParams(p); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dump.rdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := output.Write(context.Background(), f, s, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	m := &manifest.Manifest{
		Format: manifest.FormatVersion, RDBVersion: res.RDBVersion, Target: res.Target,
		Checksum: manifest.FormatChecksum(res.Stats.Checksum), Bytes: res.Stats.Bytes,
		Keys: res.Stats.Keys, Expires: res.Stats.Expires, DBs: map[int]record.Counts{},
		Spec: &manifest.SpecFile{File: "test.yaml", YAML: text, Params: s.Params},
	}
	for _, f := range s.Families {
		c := m.DBs[f.DB]
		c.Keys += f.Keys()
		c.Expires += f.Expires()
		m.DBs[f.DB] = c
	}
	return path, m
}

func TestFileSpecPasses(t *testing.T) {
	path, m := generateSpec(t, testSpec)
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: processOptions(t), Sample: 100})
	wantPass(t, rep, err)
	f := rep.File
	if f.DBs[0].Types["hash"] != 300 || f.DBs[0].Types["set"] != 1 || f.DBs[0].Types["zset"] != 50 || f.DBs[2].Types["string"] != 300 {
		t.Fatalf("file %+v", f.DBs)
	}
	// Each family gets its share of the 100, at least its first and last records.
	if s := rep.Server; s.Sampled < 100 || s.Sampled > 110 || s.Keys != 651 || s.DBs[2].Expires != 300 {
		t.Fatalf("server %+v", s)
	}
	// user:301 follows "more users"; user:201 follows "users" but is "more users"' first.
	if rep.Server.Absent != 3 {
		t.Fatalf("%d keys checked absent, want 3 (user:301, the next session, scores:51)", rep.Server.Absent)
	}
}

func TestFileSpecMismatch(t *testing.T) {
	path, m := generateSpec(t, testSpec)
	// The manifest's spec says one user fewer: counts and types differ.
	m.Spec.YAML = strings.Replace(m.Spec.YAML, "count: 200", "count: 199", 1)
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: processOptions(t)})
	wantFail(t, rep, err, verify.StageFile, "file: hash keys in db 0: got 300, want 299 (manifest)")

	m.Spec.YAML = "families: [not a family]"
	if _, err := verify.File(testContext(t), path, verify.Options{Manifest: m}); err == nil || !strings.Contains(err.Error(), "the manifest's spec: ") {
		t.Fatalf("a broken spec: %v", err)
	}
}

// TestFileImportManifest checks a file whose manifest describes an import, which cannot be
// recomputed: the counts are checked, nothing is sampled.
func TestFileImportManifest(t *testing.T) {
	path, m := generate(t, classic(100), encoder.Options{})
	m.Dataset, m.Import = nil, &manifest.Import{Inputs: []string{"data.jsonl"}, Format: "json", Records: 100, OnDup: "error"}
	rep, err := verify.File(testContext(t), path, verify.Options{Manifest: m, Server: processOptions(t)})
	wantPass(t, rep, err)
	if rep.Server.Keys != 100 || rep.Server.Sampled != 0 || rep.Server.Absent != 0 {
		t.Fatalf("server %+v", rep.Server)
	}
}
