package memory_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/memory"
	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// oneKey estimates a database of the single record r, sized by RESIZEDB.
func oneKey(t *testing.T, opts memory.Options, r record.Record) memory.Result {
	t.Helper()
	e, err := memory.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.BeginDB(0, record.Counts{Keys: 1}); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteTo(e); err != nil {
		t.Fatal(err)
	}
	res, err := e.Result()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// members returns n members named prefix0, prefix1 … with values of size bytes.
func members(n int, prefix string, size int) []record.Member {
	ms := make([]record.Member, n)
	for i := range ms {
		ms[i] = record.Member{Name: fmt.Appendf(nil, "%s%d", prefix, i), Value: bytes.Repeat([]byte("v"), size), Score: float64(i)}
	}
	return ms
}

// Strings, priced by hand: the key "key1" costs a dictEntry (24, class 32) and an sdshdr5
// (6, class 8); the main dict and the expires dict RESIZEDB creates have 4 buckets (32
// each); an expiry costs a second dictEntry.
func TestEstimateStrings(t *testing.T) {
	const keyspace = 32 + 8 + 32 + 32
	cases := []struct {
		name       string
		value      string
		expire     int64
		opts       memory.Options
		encoding   string
		valueBytes int64 // the value's bytes
	}{
		{"shared-integer", "5", 0, memory.Options{}, "int", 0},
		{"shared-integer-limit", "9999", 0, memory.Options{}, "int", 0},
		{"integer", "10000", 0, memory.Options{}, "int", 16},
		{"negative-integer", "-1", 0, memory.Options{}, "int", 16},
		{"maxmemory-integer", "5", 0, memory.Options{NoSharedIntegers: true}, "int", 16},
		{"leading-zero", "05", 0, memory.Options{}, "embstr", 32},
		{"empty", "", 0, memory.Options{}, "embstr", 32},
		{"embstr-12", "key100000001", 0, memory.Options{}, "embstr", 32},
		{"embstr-44", string(bytes.Repeat([]byte("x"), 44)), 0, memory.Options{}, "embstr", 64},
		{"raw-45", string(bytes.Repeat([]byte("x"), 45)), 0, memory.Options{}, "raw", 16 + 64},
		{"raw-300", string(bytes.Repeat([]byte("x"), 300)), 0, memory.Options{}, "raw", 16 + 320},
		{"expiry", "x", 1, memory.Options{}, "embstr", 32 + 32},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := oneKey(t, c.opts, record.Record{Key: []byte("key1"), Value: []byte(c.value), ExpireAtMS: c.expire})
			if want := keyspace + c.valueBytes; r.Bytes != want {
				t.Errorf("Bytes = %d, want %d", r.Bytes, want)
			}
			if len(r.Encodings) != 1 || r.Encodings[0].Encoding != c.encoding {
				t.Errorf("encodings %+v, want one %s", r.Encodings, c.encoding)
			}
		})
	}
}

// Collections take the encoding the target's server chooses under its thresholds.
func TestEstimateEncodings(t *testing.T) {
	ints := func(n int) []record.Member {
		ms := make([]record.Member, n)
		for i := range ms {
			ms[i].Name = fmt.Appendf(nil, "%d", i)
		}
		return ms
	}
	small := rdb.DefaultThresholds()
	small.HashMaxListpackEntries = 2
	cases := []struct {
		name     string
		opts     memory.Options
		typ      record.Type
		members  []record.Member
		encoding string
	}{
		{"hash-small", memory.Options{}, record.Hash, members(512, "f", 64), "listpack"},
		{"hash-many", memory.Options{}, record.Hash, members(513, "f", 1), "hashtable"},
		{"hash-long-value", memory.Options{}, record.Hash, members(2, "f", 65), "hashtable"},
		{"hash-thresholds", memory.Options{Thresholds: &small}, record.Hash, members(3, "f", 1), "hashtable"},
		{"set-ints", memory.Options{}, record.Set, ints(512), "intset"},
		{"set-many-ints", memory.Options{}, record.Set, ints(513), "hashtable"},
		{"set-strings-7.0", memory.Options{}, record.Set, members(3, "m", 0), "hashtable"},
		{"set-strings-7.2", memory.Options{Target: "redis-7.2"}, record.Set, members(128, "m", 0), "listpack"},
		{"set-many-strings-7.2", memory.Options{Target: "redis-7.2"}, record.Set, members(129, "m", 0), "hashtable"},
		{"zset-small", memory.Options{}, record.ZSet, members(128, "m", 0), "listpack"},
		{"zset-many", memory.Options{}, record.ZSet, members(129, "m", 0), "skiplist"},
		{"list-7.0", memory.Options{}, record.List, members(3, "e", 0), "quicklist"},
		{"list-7.2", memory.Options{Target: "redis-7.2"}, record.List, members(3, "e", 0), "listpack"},
		{"list-big-7.2", memory.Options{Target: "redis-7.2"}, record.List, members(3000, "element", 0), "quicklist"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := oneKey(t, c.opts, record.Record{Key: []byte("k"), Type: c.typ, Members: c.members})
			if len(r.Encodings) != 1 || r.Encodings[0].Encoding != c.encoding || r.Encodings[0].Type != c.typ {
				t.Errorf("encodings %+v, want one %s %s", r.Encodings, c.typ, c.encoding)
			}
		})
	}
}

// A listpack costs the bytes the encoder would write, rounded to a size class: the hash
// {"f": "v"} is a listpack of 7 + 3 + 3 bytes (class 16) beside its robj (16).
func TestEstimateListpackBytes(t *testing.T) {
	r := oneKey(t, memory.Options{}, record.Record{Key: []byte("k"), Type: record.Hash,
		Members: []record.Member{{Name: []byte("f"), Value: []byte("v")}}})
	if want := int64(32 + 8 + 32 + 32 + 16 + 16); r.Bytes != want {
		t.Errorf("Bytes = %d, want %d", r.Bytes, want)
	}
}

// The totals agree: by database, by type plus tables, by encoding.
func TestResultTotals(t *testing.T) {
	e, err := memory.New(memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs := []record.Record{
		{Key: []byte("a"), Value: []byte("1")},
		{Key: []byte("b"), Type: record.Hash, Members: members(600, "f", 5), ExpireAtMS: 1},
		{Key: []byte("c"), Type: record.ZSet, Members: members(10, "m", 0)},
	}
	for db := range 2 {
		if err := e.BeginDB(db*5, record.Counts{}); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if err := r.WriteTo(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	r, err := e.Result()
	if err != nil {
		t.Fatal(err)
	}
	var dbs, types, encs int64
	for _, d := range r.DBs {
		dbs += d.Bytes
	}
	for _, u := range r.Types {
		types += u.Bytes
	}
	for _, u := range r.Encodings {
		encs += u.Bytes
	}
	if dbs != r.Bytes || types+r.Tables != r.Bytes || encs != types {
		t.Errorf("Bytes %d, databases %d, types %d + tables %d, encodings %d", r.Bytes, dbs, types, r.Tables, encs)
	}
	if r.Keys != 6 || r.Expires != 2 || len(r.DBs) != 2 || r.DBs[1].DB != 5 || r.Target != memory.DefaultTarget {
		t.Errorf("result %+v", r)
	}
}

// Misuse fails with the encoder's sentinels, and the first error sticks.
func TestEstimatorErrors(t *testing.T) {
	key := []byte("k")
	str := &record.Header{Key: key, Type: record.String, Value: key}
	cases := []struct {
		name string
		run  func(e *memory.Estimator) error
		want error
	}{
		{"no-db", func(e *memory.Estimator) error { return e.Begin(str) }, encoder.ErrNoDB},
		{"no-db-collection", func(e *memory.Estimator) error {
			return e.Begin(&record.Header{Key: key, Type: record.Set, Len: 1})
		}, encoder.ErrNoDB},
		{"add-none-open", func(e *memory.Estimator) error {
			_ = e.BeginDB(0, record.Counts{})
			return e.Add(&record.Member{Name: key, Value: key})
		}, encoder.ErrNoCollection},
		{"end-none-open", func(e *memory.Estimator) error {
			_ = e.BeginDB(0, record.Counts{})
			return e.End(nil)
		}, encoder.ErrNoCollection},
		{"count", func(e *memory.Estimator) error {
			_ = e.BeginDB(0, record.Counts{})
			_ = e.Begin(&record.Header{Key: key, Type: record.List, Len: 2})
			_ = e.Add(&record.Member{Name: key})
			return e.End(nil)
		}, encoder.ErrMemberCount},
		{"string-while-open", func(e *memory.Estimator) error {
			_ = e.BeginDB(0, record.Counts{})
			_ = e.Begin(&record.Header{Key: key, Type: record.Hash, Len: 1})
			return e.Begin(str)
		}, encoder.ErrCollectionOpen},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := memory.New(memory.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.run(e); !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if err := e.BeginDB(1, record.Counts{}); !errors.Is(err, c.want) {
				t.Errorf("after the error, BeginDB gives %v, want the first error", err)
			}
			if _, err := e.Result(); !errors.Is(err, c.want) {
				t.Errorf("Result gives %v, want the first error", err)
			}
		})
	}
}

func TestNewOptions(t *testing.T) {
	if _, err := memory.New(memory.Options{Target: "redis-1.0"}); !errors.Is(err, rdb.ErrUnknownTarget) {
		t.Errorf("unknown target: %v", err)
	}
	bad := rdb.DefaultThresholds()
	bad.HashMaxListpackEntries = -1
	if _, err := memory.New(memory.Options{Thresholds: &bad}); !errors.Is(err, rdb.ErrInvalidOption) {
		t.Errorf("bad thresholds: %v", err)
	}
	for _, name := range rdb.TargetNames() {
		if _, err := memory.New(memory.Options{Target: name}); err != nil {
			t.Errorf("target %s: %v", name, err)
		}
	}
}

// Estimate passes on the source's error, wrapped once.
func TestEstimateSourceError(t *testing.T) {
	bad := &dataset.Config{Count: 1, Type: "tree"}
	if _, err := memory.Estimate(context.Background(), bad, memory.Options{}); err == nil || !strings.HasPrefix(err.Error(), "memory estimate: ") {
		t.Errorf("error %v, want one starting with memory estimate", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := memory.Estimate(ctx, &dataset.Config{Count: 1 << 20, KeyPrefix: "k"}, memory.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
