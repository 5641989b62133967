package rdbgen_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hdt3213/rdb/parser"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// parsed is what github.com/hdt3213/rdb, an independent parser, reads from a file.
type parsed struct {
	version string
	aux     map[string]string
	sizes   map[int][2]uint64 // RESIZEDB per db
	keys    map[int]map[string]parser.RedisObject
}

func parse(t *testing.T, file []byte) parsed {
	t.Helper()
	p := parsed{
		version: string(file[5:9]),
		aux:     map[string]string{},
		sizes:   map[int][2]uint64{},
		keys:    map[int]map[string]parser.RedisObject{},
	}
	dec := parser.NewDecoder(bytes.NewReader(file)).WithSpecialOpCode()
	err := dec.Parse(func(o parser.RedisObject) bool {
		switch o := o.(type) {
		case *parser.AuxObject:
			p.aux[o.Key] = o.Value
		case *parser.DBSizeObject:
			p.sizes[o.DB] = [2]uint64{o.KeyCount, o.TTLCount}
		default:
			db := o.GetDBIndex()
			if p.keys[db] == nil {
				p.keys[db] = map[string]parser.RedisObject{}
			}
			if _, dup := p.keys[db][o.GetKey()]; dup {
				t.Errorf("duplicate key %q in db %d", o.GetKey(), db)
			}
			p.keys[db][o.GetKey()] = o
		}
		return true
	})
	if err != nil {
		t.Fatalf("hdt3213/rdb cannot parse the file: %v", err)
	}
	return p
}

// checkTrailer verifies the CRC-64 trailer the parser does not check.
func checkTrailer(t *testing.T, file []byte, checksum bool) {
	t.Helper()
	got := binary.LittleEndian.Uint64(file[len(file)-8:])
	want := encoder.Checksum(file[:len(file)-8])
	if !checksum {
		want = 0
	}
	if got != want {
		t.Fatalf("trailer %#x, want %#x", got, want)
	}
}

func TestGenerateReadBackByIndependentParser(t *testing.T) {
	base := time.Now().Add(time.Hour).UnixMilli()
	datasets := map[string]dataset.Strings{
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
				res, err := rdbgen.Write(context.Background(), &buf, &d, rdbgen.Options{Encoder: opts})
				if err != nil {
					t.Fatal(err)
				}
				file := buf.Bytes()
				if res.Stats.Bytes != int64(len(file)) || res.Stats.Keys != d.Count || res.Stats.Expires != d.Expires() {
					t.Fatalf("result %+v for a %d-byte file of %d keys", res.Stats, len(file), d.Count)
				}
				checkTrailer(t, file, !opts.DisableChecksum)
				p := parse(t, file)
				target, _ := encoder.LookupTarget(opts.Target)
				if want := fmt.Sprintf("%04d", target.RDBVersion); p.version != want {
					t.Fatalf("version %s, want %s", p.version, want)
				}
				if p.aux["redis-ver"] != target.ServerVer || p.aux["rdbgen-ver"] != encoder.Version {
					t.Fatalf("aux fields %v", p.aux)
				}
				checkRecords(t, p, &d)
			})
		}
	}
}

func checkRecords(t *testing.T, p parsed, d *dataset.Strings) {
	t.Helper()
	if d.Count == 0 {
		if len(p.keys) != 0 || len(p.sizes) != 0 {
			t.Fatalf("empty dataset produced keys %v sizes %v", len(p.keys), p.sizes)
		}
		return
	}
	if got := p.sizes[d.DB]; got != [2]uint64{d.Count, d.Expires()} {
		t.Fatalf("RESIZEDB %v, want [%d %d]", got, d.Count, d.Expires())
	}
	keys := p.keys[d.DB]
	if uint64(len(keys)) != d.Count || len(p.keys) != 1 {
		t.Fatalf("%d keys in db %d (%d dbs), want %d", len(keys), d.DB, len(p.keys), d.Count)
	}
	for i := range d.Count {
		checkRecord(t, keys, d, i)
	}
}

// checkRecord checks that keys holds record i of d, with its value and expiry.
func checkRecord(t *testing.T, keys map[string]parser.RedisObject, d *dataset.Strings, i uint64) {
	t.Helper()
	key := string(d.AppendKey(nil, i))
	o, ok := keys[key].(*parser.StringObject)
	if !ok {
		t.Fatalf("key %q missing or not a string: %T", key, keys[key])
	}
	if want := d.AppendValue(nil, i); !bytes.Equal(o.Value, want) {
		t.Fatalf("key %q = %q, want %q", key, o.Value, want)
	}
	exp := o.GetExpiration()
	switch want := d.ExpireAtMS(i); {
	case want == 0 && exp != nil:
		t.Fatalf("key %q expires at %v, want none", key, exp)
	case want != 0 && (exp == nil || exp.UnixMilli() != want):
		t.Fatalf("key %q expires at %v, want %d", key, exp, want)
	}
}

func TestGenerateStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	d := &dataset.Strings{Count: 10_000_000, KeyPrefix: "key"}
	_, err := rdbgen.Write(ctx, new(bytes.Buffer), d, rdbgen.Options{Progress: func(record.Progress) {
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
	_, err := rdbgen.Write(context.Background(), new(bytes.Buffer), &dataset.Strings{Count: 1, KeyPrefix: "a\x00"}, rdbgen.Options{})
	if !errors.Is(err, dataset.ErrInvalid) {
		t.Fatalf("NUL prefix: %v", err)
	}
	_, err = rdbgen.Write(context.Background(), new(bytes.Buffer), &dataset.Strings{Count: 1}, rdbgen.Options{Encoder: encoder.Options{Target: "redis-1.0"}})
	if !errors.Is(err, encoder.ErrUnknownTarget) {
		t.Fatalf("unknown target: %v", err)
	}
}
