package convert

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/output"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// twoCoresInput is n keys of each kind of a case, a library first, a stream with a group
// after the decision.
func twoCoresInput(strings, hashes int) record.Records {
	rs := record.Records{}
	for i := range hashes {
		rs = append(rs, record.Record{Key: fmt.Appendf(nil, "h:%d", i), Type: record.Hash, ExpireAtMS: int64(i % 2 * 4102444800000),
			Members: []record.Member{{Name: []byte("a"), Value: []byte("1")}, {Name: []byte("b"), Value: fmt.Appendf(nil, "%d", i)}, {Name: []byte("c"), Value: []byte{}}}})
	}
	for i := range strings {
		rs = append(rs, record.Record{Key: fmt.Appendf(nil, "s:%d", i), Value: fmt.Appendf(nil, "v%d", i)})
	}
	rs = append(rs, record.Record{DB: 2, Key: []byte("x"), Type: record.Stream,
		Members: []record.Member{{ID: record.StreamID{Ms: 1}, Fields: [][]byte{[]byte("f"), []byte("v")}}},
		Stream: record.StreamTail{Groups: []record.StreamGroup{{Name: []byte("g"), LastID: record.StreamID{Ms: 1}, EntriesRead: 1,
			Pending:   []record.StreamPending{{ID: record.StreamID{Ms: 1}, DeliveryTimeMS: 5, DeliveryCount: 1}},
			Consumers: []record.StreamConsumer{{Name: []byte("c"), SeenTimeMS: 5, ActiveTimeMS: 5, Pending: []record.StreamID{{Ms: 1}}}}}}}})
	return rs
}

// withLibrary is a source that writes a library, then src.
type withLibrary struct{ src record.Source }

func (w withLibrary) WriteTo(ctx context.Context, sink record.Sink) error {
	if err := sink.WriteFunction([]byte("#!lua name=lib\nredis.register_function('f', function() return 1 end)")); err != nil {
		return err
	}
	return w.src.WriteTo(ctx, sink)
}

// TestTwoCores: a conversion takes a Pipe where its first keys are collections, not where
// they are strings, and writes the same bytes on one core as on two.
func TestTwoCores(t *testing.T) {
	for _, tc := range []struct {
		name            string
		strings, hashes int
		piped           bool
	}{
		{"strings", 3 * pipeAfterKeys, 0, false},
		{"hashes", 0, 2 * pipeAfterKeys, true},
		{"hashes, too few to decide (the stream is one more key)", 0, pipeAfterKeys - 2, false},
		{"hashes then strings", 2 * pipeAfterKeys, pipeAfterKeys, true},
		{"strings then hashes", pipeAfterKeys, 2 * pipeAfterKeys, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := withLibrary{twoCoresInput(tc.strings, tc.hashes)}
			if tc.name == "strings then hashes" {
				rs := twoCoresInput(tc.strings, 0)
				src = withLibrary{append(rs[:len(rs)-1], twoCoresInput(0, tc.hashes)...)}
			}
			w := &twoCores{to: record.Discard{}, next: record.Discard{}}
			if err := w.writeFrom(context.Background(), src); err != nil {
				t.Fatal(err)
			}
			if piped := w.pipe != nil; piped != tc.piped {
				t.Errorf("piped %v, want %v", piped, tc.piped)
			}
			var files [2][]byte
			for i, procs := range []int{1, 2} {
				old := runtime.GOMAXPROCS(procs)
				var buf bytes.Buffer
				res, stats, err := Write(context.Background(), &buf, src, output.Options{Encoder: encoder.Options{Target: "redis-7.4", CreatedAt: time.Unix(1795946400, 0)}}, Options{})
				runtime.GOMAXPROCS(old)
				if err != nil {
					t.Fatal(err)
				}
				if want := uint64(tc.strings + tc.hashes + 1); stats.Read != want || res.Stats.Keys != want || stats.Functions != 1 {
					t.Errorf("on %d cores: read %d, wrote %d keys, %d libraries; want %d, %d, 1", procs, stats.Read, res.Stats.Keys, stats.Functions, want, want)
				}
				files[i] = buf.Bytes()
			}
			if !bytes.Equal(files[0], files[1]) {
				t.Errorf("one core wrote %d bytes, two %d, not the same", len(files[0]), len(files[1]))
			}
		})
	}
}
