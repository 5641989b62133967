package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rdbgen/rdbgen/rdb"
	"github.com/rdbgen/rdbgen/rdb/encoder"
	"github.com/rdbgen/rdbgen/record"
)

// fillRecords writes n string records (every third with an expiry) and, with tagged, as
// many again that share one hash tag, so that one shard gets far more than its share.
func fillRecords(w *Writer, n int, tagged bool) error {
	for i := range n {
		var at int64
		if i%3 == 0 {
			at = 4102444800000 + int64(i)
		}
		k := fmt.Appendf(nil, "key%d", i)
		if err := writeString(w, k, bytes.Repeat(k, 3), at); err != nil {
			return err
		}
		if tagged {
			k = fmt.Appendf(nil, "{tag}:%d", i)
			if err := writeString(w, k, k, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestFillCounts(t *testing.T) {
	even3, _ := Even(3)
	uneven, err := NewLayout([]Shard{
		{Ranges: []Range{{First: 0, Last: 99}}},
		{Ranges: []Range{{First: 100, Last: 16383}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		layout   *Layout
		n        int
		tagged   bool
		declared record.Counts // what BeginDB declares; zero: BeginDB is not called
		prefix   int           // bytes in the files before the shard files start
		wantMove bool          // some shard's room misses its header: its records move
	}{
		{name: "declared right", layout: even3, n: 60000, declared: record.Counts{Keys: 60000, Expires: 20000}},
		{name: "fits in the buffers", layout: even3, n: 300, declared: record.Counts{Keys: 300, Expires: 100}},
		// Predicted from the first 4096 bytes: a few hundred keys, not 20000.
		{name: "not declared", layout: even3, n: 60000, wantMove: true},
		{name: "declared too many", layout: even3, n: 30000, declared: record.Counts{Keys: 1 << 33, Expires: 1 << 33}, wantMove: true},
		{name: "declared too few", layout: even3, n: 60000, declared: record.Counts{Keys: 30, Expires: 3}, wantMove: true},
		{name: "after a prefix", layout: even3, n: 60000, declared: record.Counts{Keys: 30, Expires: 3}, prefix: 12345, wantMove: true},
		// The tag's shard gets 53333 keys, the others 13333 each, under 16384.
		{name: "one hash tag", layout: even3, n: 40000, tagged: true, declared: record.Counts{Keys: 80000, Expires: 13334}, wantMove: true},
		{name: "uneven", layout: uneven, n: 50000, declared: record.Counts{Keys: 50000, Expires: 16667}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := encoder.Options{BufferSize: 4096, CreatedAt: time.Unix(1700000000, 0)} // both splits in the same second
			// The shards as written with their counts known up front, taken from a first
			// split without them.
			want := make([]*bytes.Buffer, tt.layout.Len())
			dsts := make([]io.Writer, len(want))
			for i := range want {
				want[i] = new(bytes.Buffer)
				dsts[i] = want[i]
			}
			first, err := NewWriter(dsts, tt.layout, WriterOptions{Encoder: opts})
			must(t, err)
			must(t, fillRecords(first, tt.n, tt.tagged))
			must(t, first.Close())
			counts := make([]record.Counts, len(want))
			for i, s := range first.Stats() {
				counts[i] = record.Counts{Keys: s.Keys, Expires: s.Expires}
				want[i].Reset()
			}
			counted, err := NewWriter(dsts, tt.layout, WriterOptions{Encoder: opts, Counts: counts})
			must(t, err)
			must(t, fillRecords(counted, tt.n, tt.tagged))
			must(t, counted.Close())

			files := make([]*os.File, len(want))
			for i := range files {
				f, err := os.Create(filepath.Join(t.TempDir(), "shard"))
				must(t, err)
				defer f.Close()
				if _, err := f.Write(bytes.Repeat([]byte{'p'}, tt.prefix)); err != nil {
					t.Fatal(err)
				}
				files[i], dsts[i] = f, f
			}
			if !CanFill(dsts) {
				t.Fatal("CanFill is false for regular files")
			}
			w, err := NewWriter(dsts, tt.layout, WriterOptions{Encoder: opts, FillCounts: true})
			must(t, err)
			if tt.declared.Keys > 0 {
				must(t, w.BeginDB(0, tt.declared))
			}
			must(t, fillRecords(w, tt.n, tt.tagged))
			must(t, w.Close())
			moved := false
			for i, f := range files {
				got, err := os.ReadFile(f.Name())
				must(t, err)
				if string(got[:tt.prefix]) != string(bytes.Repeat([]byte{'p'}, tt.prefix)) {
					t.Errorf("shard %d: the bytes before the shard file changed", i)
				}
				if !bytes.Equal(got[tt.prefix:], want[i].Bytes()) {
					t.Errorf("shard %d: %d bytes differ from the %d written with counts up front", i, len(got)-tt.prefix, want[i].Len())
				}
				if st := w.Stats()[i]; st.Bytes != int64(want[i].Len()) || st.Checksum != counted.Stats()[i].Checksum {
					t.Errorf("shard %d: stats %+v, want %+v", i, st, counted.Stats()[i])
				}
				moved = moved || w.files[i].left != int64(len(w.shards[i].Header()))
			}
			if moved != tt.wantMove {
				t.Errorf("records moved: %v, want %v", moved, tt.wantMove)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCanFill(t *testing.T) {
	r, pw, err := os.Pipe()
	must(t, err)
	defer r.Close()
	defer pw.Close()
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	must(t, err)
	defer devNull.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "shard"))
	must(t, err)
	defer file.Close()
	tests := []struct {
		name string
		dst  io.Writer
		want bool
	}{
		{"regular file", file, true},
		{"pipe", pw, false},
		{"character device", devNull, false},
		{"buffer", new(bytes.Buffer), false},
	}
	layout, _ := Even(2)
	for _, tt := range tests {
		dsts := []io.Writer{file, tt.dst}
		if got := CanFill(dsts); got != tt.want {
			t.Errorf("%s: CanFill %v, want %v", tt.name, got, tt.want)
		}
		_, err := NewWriter(dsts, layout, WriterOptions{FillCounts: true})
		if tt.want != (err == nil) || (err != nil && !errors.Is(err, rdb.ErrInvalidOption)) {
			t.Errorf("%s: NewWriter with FillCounts: %v", tt.name, err)
		}
	}
	if CanFill(nil) {
		t.Error("CanFill of no destinations is true")
	}
}
