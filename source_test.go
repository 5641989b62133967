package rdbgen_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen"
	"github.com/rdbgen/rdbgen/cluster"
	"github.com/rdbgen/rdbgen/dataset"
	"github.com/rdbgen/rdbgen/encoder"
	"github.com/rdbgen/rdbgen/record"
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
	big := &dataset.Spec{Count: 1 << 20, KeyPrefix: "k", KeyStart: 1}
	layout, _ := cluster.Even(2)
	tests := []struct {
		name   string
		src    record.Source
		shards bool
		dst    io.Writer
		want   error
		msg    string
	}{
		{"a key twice", twice, false, io.Discard, encoder.ErrDuplicateKey, `write key "k" in db 0: encoder: duplicate key`},
		{"a key twice, split", twice, true, io.Discard, encoder.ErrDuplicateKey, `write key "k" in db 0: encoder: duplicate key`},
		{"dataset, disk full", big, false, fullWriter{}, errDiskFull, `encoder: write: disk full`},
		{"dataset, disk full, split", big, true, fullWriter{}, errDiskFull, `encoder: write: disk full`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := rdbgen.Options{Encoder: encoder.Options{CheckDuplicates: true}}
			var err error
			if tt.shards {
				_, err = rdbgen.WriteShards(context.Background(), []io.Writer{tt.dst, tt.dst}, tt.src, layout, opts)
			} else {
				_, err = rdbgen.Write(context.Background(), tt.dst, tt.src, opts)
			}
			if !errors.Is(err, tt.want) || err.Error() != tt.msg {
				t.Fatalf("got %v, want %q (%v)", err, tt.msg, tt.want)
			}
		})
	}
}

// TestProgress checks that Write and WriteShards report through Options.Progress: counts
// that grow to the source's, with its size as the total, and bytes that end at the file's.
func TestProgress(t *testing.T) {
	d := &dataset.Spec{Count: 200_000, KeyPrefix: "k", KeyStart: 1, TTL: time.Hour, BaseTimeMS: 1700000000000}
	var last record.Progress
	calls := 0
	progress := func(p record.Progress) {
		if p.Keys < last.Keys || p.Bytes < last.Bytes {
			t.Fatalf("progress went back: %+v after %+v", p, last)
		}
		last = p
		calls++
	}
	res, err := rdbgen.Write(context.Background(), new(bytes.Buffer), d, rdbgen.Options{Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 3 || last != (record.Progress{Keys: 200_000, Total: 200_000, Bytes: res.Stats.Bytes}) {
		t.Fatalf("%d calls, the last %+v; file %+v", calls, last, res.Stats)
	}
}
