package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// sinkRecords writes n keys of every kind through a record.Sink: strings (every third with
// an expiry), hashes, lists, sets, sorted sets, hashes with field TTLs and streams.
func sinkRecords(s record.Sink, n int) error {
	if err := s.BeginDB(0, record.Counts{Keys: uint64(n), Expires: uint64(n+2) / 3}); err != nil {
		return err
	}
	for i := range n {
		k := fmt.Appendf(nil, "key:%d", i)
		r := record.Record{Key: k}
		if i%3 == 0 {
			r.ExpireAtMS = 4102444800000 + int64(i)
		}
		switch i % 7 {
		case 0, 1, 2:
			r.Type, r.Value = record.String, bytes.Repeat(k, 3)
		case 3:
			r.Type = record.Hash
			for j := range 3 {
				r.Members = append(r.Members, record.Member{Name: fmt.Appendf(nil, "f%d", j), Value: k})
			}
		case 4:
			r.Type = record.ZSet
			for j := range 2 {
				r.Members = append(r.Members, record.Member{Name: fmt.Appendf(nil, "m%d", j), Score: float64(j) / 3})
			}
		case 5:
			r.Type = record.Hash
			for j := range 2 {
				r.Members = append(r.Members, record.Member{Name: fmt.Appendf(nil, "f%d", j), Value: k, ExpireAtMS: 4102444800000 + int64(j)})
			}
		case 6:
			r.Type = record.Stream
			for j := range 4 {
				r.Members = append(r.Members, record.Member{ID: record.StreamID{Ms: 1700000000000 + uint64(j)}, Fields: [][]byte{[]byte("f"), k}})
			}
		}
		if err := r.WriteTo(s); err != nil {
			return err
		}
	}
	return nil
}

// writeString writes a string into s.
func writeString(s record.Sink, key, value []byte, exp int64) error {
	return s.Begin(&record.Header{Key: key, Type: record.String, Value: value, ExpireAtMS: exp})
}

// TestFilterWritesOneShardOfTheSplit: a Writer given shard i's destination alone (Discard for
// the others), behind a Filter of shard i, writes the very bytes of shard i's file in the split of every shard,
// into files (their counts filled in last) and into buffers alike.
func TestFilterWritesOneShardOfTheSplit(t *testing.T) {
	slots, err := ParseLayout(bytes.NewReader([]byte(
		strings.Repeat("a", 40) + " 127.0.0.1:7000@17000 master - 0 0 1 connected 0-99 9000-16383\n" +
			strings.Repeat("b", 40) + " 127.0.0.1:7001@17001 master - 0 0 2 connected 100-8999\n")))
	must(t, err)
	even1, _ := Even(1)
	even5, _ := Even(5)
	tests := []struct {
		name   string
		layout *Layout
		n      int
		files  bool
	}{
		{"one shard", even1, 3000, true},
		{"five shards into files", even5, 20000, true},
		{"five shards into buffers", even5, 20000, false},
		{"a cluster's layout", slots, 5000, true},
		{"fewer keys than shards", even5, 3, true},
	}
	opts := encoder.Options{BufferSize: 4096, CreatedAt: time.Unix(1700000000, 0), Target: "redis-7.4"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			n := tt.layout.Len()
			dest := func(name string) (io.Writer, func() []byte) {
				if !tt.files {
					b := new(bytes.Buffer)
					return b, b.Bytes
				}
				f, err := os.Create(filepath.Join(dir, name))
				must(t, err)
				t.Cleanup(func() { f.Close() })
				return f, func() []byte {
					b, err := os.ReadFile(f.Name())
					must(t, err)
					return b
				}
			}
			dsts, split := make([]io.Writer, n), make([]func() []byte, n)
			for i := range dsts {
				dsts[i], split[i] = dest(fmt.Sprintf("split-%d", i))
			}
			w, err := NewWriter(dsts, tt.layout, WriterOptions{Encoder: opts, FillCounts: tt.files})
			must(t, err)
			must(t, sinkRecords(w, tt.n))
			must(t, w.Close())
			var kept uint64
			for i := range n {
				one := make([]io.Writer, n)
				for j := range one {
					one[j] = Discard
				}
				var got func() []byte
				one[i], got = dest(fmt.Sprintf("one-%d", i))
				ow, err := NewWriter(one, tt.layout, WriterOptions{Encoder: opts, FillCounts: tt.files})
				must(t, err)
				f, err := NewFilter(ow, tt.layout, i)
				must(t, err)
				must(t, sinkRecords(f, tt.n))
				must(t, ow.Close())
				if !bytes.Equal(got(), split[i]()) {
					t.Fatalf("shard %d: %d bytes written alone, %d in the split", i, len(got()), len(split[i]()))
				}
				if f.Kept+f.Dropped != uint64(tt.n) || f.Kept != ow.Stats()[i].Keys || ow.Total().Keys != f.Kept || ow.Total().Members != ow.Stats()[i].Members {
					t.Fatalf("shard %d: kept %d, dropped %d of %d keys; the shard holds %d", i, f.Kept, f.Dropped, tt.n, ow.Stats()[i].Keys)
				}
				kept += f.Kept
			}
			if kept != uint64(tt.n) {
				t.Fatalf("the shards kept %d keys in all, want %d", kept, tt.n)
			}
		})
	}
}

// noFunctions is a Sink that refuses function libraries.
type noFunctions struct{ record.Discard }

func (noFunctions) WriteFunction(code []byte) error {
	return record.RefuseFunctions{}.WriteFunction(code)
}

func TestFilterErrors(t *testing.T) {
	even3, _ := Even(3)
	key0 := []byte("key:0") // a key of shard 0, and one of shard 2
	key2 := []byte("key:3")
	if even3.ShardOf(key0) != 0 || even3.ShardOf(key2) != 2 {
		t.Fatalf("key:0 and key:1 are in shards %d and %d", even3.ShardOf(key0), even3.ShardOf(key2))
	}
	tests := []struct {
		name string
		run  func() error
		want error
		msg  string
	}{
		{"shard out of range", func() error { _, err := NewFilter(nil, even3, 3); return err }, ErrLayout, "shard 3 of 3 shards (0 to 2)"},
		{"negative shard", func() error { _, err := NewFilter(nil, even3, -1); return err }, ErrLayout, "shard -1 of 3 shards"},
		{"a record while a dropped collection is open", func() error {
			w, _ := NewWriter([]io.Writer{io.Discard, Discard, Discard}, even3, WriterOptions{})
			f, _ := NewFilter(w, even3, 0)
			if err := f.Begin(&record.Header{Key: key2, Type: record.Set, Len: 1}); err != nil {
				return err
			}
			return writeString(f, key0, key0, 0)
		}, encoder.ErrCollectionOpen, "a new record begun"},
		{"a library for a sink without libraries", func() error {
			f, _ := NewFilter(noFunctions{}, even3, 0)
			return f.WriteFunction([]byte("#!lua name=lib\n"))
		}, record.ErrFunctionsUnsupported, `function library "lib"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if !errors.Is(err, tt.want) || !bytes.Contains([]byte(fmt.Sprint(err)), []byte(tt.msg)) {
				t.Fatalf("got %v, want %v with %q", err, tt.want, tt.msg)
			}
		})
	}
}
