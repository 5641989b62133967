package output_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/convert"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/filter"
	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/decoder"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
	"github.com/rdbgen/rdbgen/resp"
)

// sourceFunc is a record.Source made of a function.
type sourceFunc func(ctx context.Context, sink record.Sink) error

func (f sourceFunc) WriteTo(ctx context.Context, sink record.Sink) error { return f(ctx, sink) }

// errDiskFull stands for a destination that refuses writes.
var errDiskFull = errors.New("disk full")

type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// TestErrorsWrappedOnce checks that an error reaching the caller carries each piece of
// context once: the encoder names the key, the sources and the split add nothing to it
// (today's messages are pinned whole).
func TestErrorsWrappedOnce(t *testing.T) {
	twice := sourceFunc(func(_ context.Context, sink record.Sink) error {
		if err := sink.BeginDB(0, record.Counts{}); err != nil {
			return err
		}
		r := record.Record{Key: []byte("k"), Value: []byte("v")}
		if err := r.WriteTo(sink); err != nil {
			return err
		}
		return r.WriteTo(sink)
	})
	big := &dataset.Config{Count: 1 << 20, KeyPrefix: "k", KeyStart: 1}
	layout, _ := cluster.Even(2)
	tests := []struct {
		name   string
		src    record.Source
		shards bool
		dst    io.Writer
		want   error
		msg    string
	}{
		{"a key twice", twice, false, io.Discard, record.ErrDuplicateKey, `write key "k" in db 0: record: duplicate key`},
		{"a key twice, split", twice, true, io.Discard, record.ErrDuplicateKey, `write key "k" in db 0: record: duplicate key`},
		{"dataset, disk full", big, false, fullWriter{}, errDiskFull, `encoder: write: disk full`},
		{"dataset, disk full, split", big, true, fullWriter{}, errDiskFull, `encoder: write: disk full`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := output.Options{Encoder: encoder.Options{CheckDuplicates: true}}
			var err error
			if tt.shards {
				_, err = output.WriteShards(context.Background(), []io.Writer{tt.dst, tt.dst}, tt.src, layout, opts)
			} else {
				_, err = output.Write(context.Background(), tt.dst, tt.src, opts)
			}
			if !errors.Is(err, tt.want) || err.Error() != tt.msg {
				t.Fatalf("got %v, want %q (%v)", err, tt.msg, tt.want)
			}
		})
	}
}

// TestWriteProgress checks that Write and WriteShards report through Options.Progress: counts
// that grow to the source's, with its size as the total, and bytes that end at the file's.
func TestWriteProgress(t *testing.T) {
	d := &dataset.Config{Count: 200_000, KeyPrefix: "k", KeyStart: 1, TTL: time.Hour, BaseTimeMS: 1700000000000}
	var last record.Progress
	calls := 0
	progress := func(p record.Progress) {
		if p.Keys < last.Keys || p.Bytes < last.Bytes {
			t.Fatalf("progress went back: %+v after %+v", p, last)
		}
		last = p
		calls++
	}
	res, err := output.Write(context.Background(), new(bytes.Buffer), d, output.Options{Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 3 || last != (record.Progress{Keys: 200_000, Total: 200_000, Bytes: res.Stats.Bytes}) {
		t.Fatalf("%d calls, the last %+v; file %+v", calls, last, res.Stats)
	}
}

// TestCountsPerDB: the keys and expiries per database that Write of RESP and convert.Write report are
// the ones the encoder counts writing the same records, a database that a source opens
// twice counted whole, and a database that keeps no key absent.
func TestCountsPerDB(t *testing.T) {
	ctx := context.Background()
	exp := int64(4102444800000)
	two := []record.Member{{Name: []byte("a"), Value: []byte("1")}, {Name: []byte("b"), Value: []byte("2")}}
	recs := record.Records{
		{Key: []byte("a"), Value: []byte("v"), ExpireAtMS: exp},
		{Key: []byte("b"), Value: []byte("v")},
		{Key: []byte("c"), Type: record.Hash, Members: two},
		{DB: 2, Key: []byte("d"), Type: record.Set, Members: two, ExpireAtMS: exp},
		{DB: 2, Key: []byte("e"), Value: []byte("v"), ExpireAtMS: exp},
		{DB: 5, Key: []byte("f"), Type: record.Stream, Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}}},
	}
	var file bytes.Buffer
	res, err := output.Write(ctx, &file, recs, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.DBs) != 3 {
		t.Fatalf("the encoder counted %v", res.DBs)
	}
	cmds, err := output.Write(ctx, io.Discard, recs, output.Options{RESP: &resp.Options{}})
	if err != nil || !maps.Equal(cmds.DBs, res.DBs) || cmds.Stats.Members != res.Stats.Members {
		t.Errorf("the RESP commands counted %v (%v) and %d members, the encoder %v and %d", cmds.DBs, err, cmds.Stats.Members, res.DBs, res.Stats.Members)
	}
	// db 0 in two sections, as a dump may hold it.
	split := sourceFunc(func(ctx context.Context, sink record.Sink) error {
		for _, part := range []record.Records{recs[:1], recs[3:], recs[1:3]} {
			if err := part.WriteTo(ctx, sink); err != nil {
				return err
			}
		}
		return nil
	})
	if cmds, err = output.Write(ctx, io.Discard, split, output.Options{RESP: &resp.Options{}}); err != nil || !maps.Equal(cmds.DBs, res.DBs) {
		t.Errorf("the RESP commands of db 0 in two sections counted %v (%v), want %v", cmds.DBs, err, res.DBs)
	}
	rd, err := decoder.NewReader(bytes.NewReader(file.Bytes()), decoder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, stats, err := convert.Write(ctx, io.Discard, rd, output.Options{Encoder: encoder.Options{Target: "redis-7.0"}},
		convert.Options{Filter: filter.Options{DBs: []int{0, 2}}})
	want := maps.Clone(res.DBs)
	delete(want, 5)
	if err != nil || !maps.Equal(stats.DBs, want) || stats.Read != 6 || stats.Filtered != 1 {
		t.Errorf("convert.Write counted %+v (%v), want DBs %v", stats, err, want)
	}
}
