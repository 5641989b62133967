package dataset_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/internal/readback"
	"github.com/rdbgen/rdbgen/internal/version"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

func TestGenerateReadBackByIndependentParser(t *testing.T) {
	base := time.Now().Add(time.Hour).UnixMilli()
	datasets := map[string]dataset.Config{
		"classic":      {Count: 2000, KeyPrefix: "key", KeyStart: 100000001},
		"int-valued":   {Count: 2000, KeyPrefix: "", KeyStart: 2147483000},
		"random":       {Count: 500, KeyPrefix: "r:", KeyStart: 1, Value: dataset.ValueRandom, ValueSize: 100, Seed: 3},
		"compressible": {Count: 500, KeyPrefix: "tenant:acme:service:billing:invoice:", KeyStart: 1},
		"ttl-db3":      {Count: 700, KeyPrefix: "s", KeyStart: 1, TTL: time.Hour, TTLJitter: time.Minute, BaseTimeMS: base, Seed: 5, DB: 3},
		"empty":        {Count: 0, KeyPrefix: "key"},
	}
	optionSets := map[string]encoder.Options{}
	for _, target := range []string{"redis-5.0", "redis-7.0", "redis-7.2", "redis-7.4"} {
		for _, compress := range []bool{true, false} {
			for _, checksum := range []bool{true, false} {
				name := fmt.Sprintf("%s/compress=%v/checksum=%v", target, compress, checksum)
				optionSets[name] = encoder.Options{Target: target, DisableCompression: !compress, DisableChecksum: !checksum}
			}
		}
	}
	for dname, d := range datasets {
		for oname, opts := range optionSets {
			t.Run(dname+"/"+oname, func(t *testing.T) {
				var buf bytes.Buffer
				res, err := output.Write(context.Background(), &buf, &d, output.Options{Encoder: opts})
				if err != nil {
					t.Fatal(err)
				}
				file := buf.Bytes()
				if res.Stats.Bytes != int64(len(file)) || res.Stats.Keys != d.Count || res.Stats.Expires != d.Expires() {
					t.Fatalf("result %+v for a %d-byte file of %d keys", res.Stats, len(file), d.Count)
				}
				readback.CheckTrailer(t, file, !opts.DisableChecksum)
				p := readback.Parse(t, file)
				target, _ := rdb.LookupTarget(opts.Target)
				if want := fmt.Sprintf("%04d", target.RDBVersion); p.Version != want {
					t.Fatalf("version %s, want %s", p.Version, want)
				}
				if p.Aux["redis-ver"] != target.ServerVer || p.Aux["rdbgen-ver"] != version.Release() {
					t.Fatalf("aux fields %v", p.Aux)
				}
				checkRecords(t, p, &d)
			})
		}
	}
}

func checkRecords(t *testing.T, p readback.File, d *dataset.Config) {
	t.Helper()
	if d.Count == 0 {
		if len(p.Keys) != 0 || len(p.Sizes) != 0 {
			t.Fatalf("empty dataset produced keys %v sizes %v", len(p.Keys), p.Sizes)
		}
		return
	}
	if got := p.Sizes[d.DB]; got != [2]uint64{d.Count, d.Expires()} {
		t.Fatalf("RESIZEDB %v, want [%d %d]", got, d.Count, d.Expires())
	}
	keys := p.Keys[d.DB]
	if uint64(len(keys)) != d.Count || len(p.Keys) != 1 {
		t.Fatalf("%d keys in db %d (%d dbs), want %d", len(keys), d.DB, len(p.Keys), d.Count)
	}
	for i := range d.Count {
		readback.CheckString(t, keys, d, i)
	}
}

func TestGenerateStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	d := &dataset.Config{Count: 10_000_000, KeyPrefix: "key"}
	_, err := output.Write(ctx, new(bytes.Buffer), d, output.Options{Progress: func(record.Progress) {
		calls++
		if calls == 2 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestGenerateRejectsBadInput(t *testing.T) {
	_, err := output.Write(context.Background(), new(bytes.Buffer), &dataset.Config{Count: 1, KeyPrefix: "a\x00"}, output.Options{})
	if !errors.Is(err, dataset.ErrInvalid) {
		t.Fatalf("NUL prefix: %v", err)
	}
	_, err = output.Write(context.Background(), new(bytes.Buffer), &dataset.Config{Count: 1}, output.Options{Encoder: encoder.Options{Target: "redis-1.0"}})
	if !errors.Is(err, rdb.ErrUnknownTarget) {
		t.Fatalf("unknown target: %v", err)
	}
}

// TestGenerateCollections writes every collection type for each target family and checks
// that each key holds what record.Record says, the content verify's spot-check compares.
func TestGenerateCollections(t *testing.T) {
	base := time.Now().Add(time.Hour).UnixMilli()
	for _, typ := range []record.Type{record.Hash, record.List, record.Set, record.ZSet} {
		for _, mode := range []dataset.ValueMode{dataset.ValueSame, dataset.ValueRandom} {
			for _, target := range []string{"redis-5.0", "redis-7.0", "redis-7.2", "redis-7.4"} {
				d := dataset.Config{Count: 60, KeyPrefix: "c:", KeyStart: 1, Type: typ, Members: dataset.Range{Min: 1, Max: 700},
					Value: mode, Seed: 11, TTL: time.Hour, BaseTimeMS: base, DB: 2}
				if mode == dataset.ValueRandom {
					d.ValueSize = 70 // past the listpack value limit: some collections go plain
				}
				t.Run(string(typ)+"/"+string(mode)+"/"+target, func(t *testing.T) {
					var buf bytes.Buffer
					res, err := output.Write(context.Background(), &buf, &d, output.Options{Encoder: encoder.Options{Target: target, CheckDuplicates: true}})
					if err != nil {
						t.Fatal(err)
					}
					p := readback.Parse(t, buf.Bytes())
					var members uint64
					for i := range d.Count {
						want := d.Record(i)
						members += uint64(len(want.Members))
						o, ok := p.Keys[2][string(want.Key)]
						if !ok {
							t.Fatalf("key %q missing", want.Key)
						}
						if got := o.GetExpiration(); got == nil || got.UnixMilli() != want.ExpireAtMS {
							t.Fatalf("key %q expiry %v, want %d", want.Key, got, want.ExpireAtMS)
						}
						readback.CheckCollection(t, o, want)
					}
					if res.Stats.Members != members {
						t.Fatalf("stats count %d members, want %d", res.Stats.Members, members)
					}
				})
			}
		}
	}
}
